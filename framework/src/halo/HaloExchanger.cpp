// hcart::HaloExchanger and hcart::HaloBinding: the front over the engine (HaloEngine.hpp).
#include "HaloEngine.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/halo/HaloExchanger.hpp>

namespace hcart {

std::string to_string(const HaloWidth& width) {
  const std::array<int, 3>& l = width.layers;
  if (l[0] == l[1] && l[1] == l[2]) return std::to_string(l[0]);
  return "{" + std::to_string(l[0]) + ", " + std::to_string(l[1]) + ", " + std::to_string(l[2]) +
         "}";
}

HaloExchanger::HaloExchanger(const Grid& grid, HaloMode mode, const HaloOptions& options)
    : m_engine(std::make_unique<impl::HaloEngine>(grid, mode, options)) {}

HaloExchanger::~HaloExchanger() = default;

void HaloExchanger::begin_call(const impl::HaloCall& call, std::size_t count) {
  m_engine->begin_call(call);
  if (m_fields.size() < count) {
    m_fields.resize(count);
    count_allocation();
  }
  m_bound = count;
}

void HaloExchanger::start_bound() {
  m_engine->start_checked(m_fields.data(), m_bound);
}

void HaloExchanger::finish() {
  m_engine->finish(0);
}

void HaloExchanger::make_binding(HaloBinding& binding, const impl::HaloCall& call) {
  binding.m_comm = std::make_unique<impl::BindingComm>();
  binding.m_id = m_engine->bind(binding.m_fields, call, *binding.m_comm);
  binding.m_exchanger = this;
  binding.m_call = call;
}

void HaloExchanger::count_allocation() {
  ++m_engine->allocations();
}

bool HaloExchanger::in_flight() const noexcept {
  return m_engine->in_flight();
}
HaloMode HaloExchanger::mode() const noexcept {
  return m_engine->mode();
}
const HaloOptions& HaloExchanger::options() const noexcept {
  return m_engine->options();
}
const HaloPlan& HaloExchanger::plan() const noexcept {
  return m_engine->default_plan().plan;
}
std::array<int, 3> HaloExchanger::width() const noexcept {
  return m_engine->default_plan().width;
}
const HaloCounters& HaloExchanger::counters() const noexcept {
  return m_engine->counters();
}
const HaloTimes& HaloExchanger::times() const noexcept {
  return m_engine->times();
}
void HaloExchanger::reset_counters() {
  HaloCounters& c = m_engine->counters();
  c.bytes.assign(c.level_names.size(), 0);
  c.messages.assign(c.level_names.size(), 0);
  c.exchanges = 0;
}
std::size_t HaloExchanger::allocation_count() const noexcept {
  return m_engine->allocations();
}
bool HaloExchanger::device_buffers() const noexcept {
  return m_engine->device_buffers();
}
bool HaloExchanger::stages_by_copy() const noexcept {
  return m_engine->stages_by_copy();
}
void HaloExchanger::set_loop_pattern(LoopPattern pattern) {
  m_engine->set_loop_pattern(pattern);
}

HaloBinding::HaloBinding() = default;

void HaloBinding::start() {
  HCART_CHECK(m_exchanger != nullptr, "hcart::HaloBinding::start: an empty binding (made by "
                                      "HaloExchanger::bind, or moved from)");
  m_exchanger->m_engine->start_binding(m_fields, m_call, m_comm->comm.get(), m_id);
  m_started = true;
}

void HaloBinding::finish() {
  HCART_CHECK(m_started, "hcart::HaloBinding::finish: this binding has no exchange in flight; "
                         "call start() first");
  m_started = false;
  m_exchanger->m_engine->finish(m_id);
}

HaloBinding::HaloBinding(HaloBinding&& other) noexcept
    : m_exchanger(other.m_exchanger), m_fields(std::move(other.m_fields)), m_call(other.m_call),
      m_id(other.m_id), m_comm(std::move(other.m_comm)), m_started(other.m_started) {
  other.m_exchanger = nullptr;
  other.m_started = false;
}

HaloBinding& HaloBinding::operator=(HaloBinding&& other) noexcept {
  if (this != &other) {
    release();
    m_exchanger = other.m_exchanger;
    m_fields = std::move(other.m_fields);
    m_call = other.m_call;
    m_id = other.m_id;
    m_comm = std::move(other.m_comm);
    m_started = other.m_started;
    other.m_exchanger = nullptr;
    other.m_started = false;
  }
  return *this;
}

HaloBinding::~HaloBinding() {
  release();
}

// Completes an exchange of this binding still in flight (errors are lost: a destructor),
// and frees the communicator. The exchanger is touched only then: an idle binding may be
// destroyed after it.
void HaloBinding::release() noexcept {
  if (m_started) {
    m_started = false;
    try {
      m_exchanger->m_engine->finish(m_id);
    } catch (...) {
    }
  }
  m_comm.reset();
  m_exchanger = nullptr;
  m_fields.clear();
}

} // namespace hcart
