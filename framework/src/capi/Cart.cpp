// The C interface (hcart/cart.h): each call checks its arguments, turns them into the same
// GridSpec and DecompositionOptions a C++ caller would build, and lets hcart::Decomposition
// (or, without a communicator, hcart::plan_decomposition) decide, so the C, Fortran and C++
// routes give the same grid and placement. Exceptions end here: each becomes a return code
// and the message HCART_Error_message reads.
#include <hcart/cart.h>
#include <hcart/core/Collective.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Planner.hpp>
#include <hcart/topology/Detect.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

extern "C" const double hcart_weights_equal[1] = {1.0};

namespace hcart::capi {

namespace {

// One call's input as the C++ API takes it: the 3D spec and options (directions beyond
// ndims of size 1, halo 0, fixed at 1).
struct Request {
  int ndims = 3;
  GridSpec spec;
  DecompositionOptions options;
};

thread_local std::string last_error;

int fail(int code, const std::string& message) {
  last_error = message;
  return code;
}

std::string info_value(MPI_Info info, const char* key) {
#if MPI_VERSION >= 4
  int length = 0, flag = 0;
  char probe[1];
  HCART_MPI_CHECK(MPI_Info_get_string(info, key, &length, probe, &flag));
  std::vector<char> value(static_cast<std::size_t>(length) + 1, '\0');
  HCART_MPI_CHECK(MPI_Info_get_string(info, key, &length, value.data(), &flag));
#else
  int length = 0, flag = 0;
  HCART_MPI_CHECK(MPI_Info_get_valuelen(info, key, &length, &flag));
  std::vector<char> value(static_cast<std::size_t>(length) + 1, '\0');
  HCART_MPI_CHECK(MPI_Info_get(info, key, length, value.data(), &flag));
#endif
  return std::string(value.data());
}

// What the info keys set, into the options the C++ API takes.
void read_info(const char* call, MPI_Info info, DecompositionOptions& options) {
  if (info == MPI_INFO_NULL) return;
  int keys = 0;
  HCART_MPI_CHECK(MPI_Info_get_nkeys(info, &keys));
  for (int n = 0; n < keys; ++n) {
    char key[MPI_MAX_INFO_KEY + 1] = {};
    HCART_MPI_CHECK(MPI_Info_get_nthkey(info, n, key));
    const std::string name(key);
    if (name.rfind("hcart_", 0) != 0) continue;
    const std::string value = info_value(info, key);
    try {
      if (name == "hcart_strategy") {
        options.strategy = parse_strategy(value);
      } else if (name == "hcart_machine") {
        options.machine = value;
      } else if (name == "hcart_placement") {
        options.placement = parse_placement(value);
      } else if (name == "hcart_equal_blocks") {
        if (value == "true" || value == "1") {
          options.equal_blocks = true;
        } else if (value == "false" || value == "0") {
          options.equal_blocks = false;
        } else {
          throw InputError("info hcart_equal_blocks = '" + value +
                           "': expected true, false, 1 or 0");
        }
      } else {
        throw InputError("info key '" + name +
                         "': expected hcart_strategy, hcart_machine, hcart_placement or "
                         "hcart_equal_blocks");
      }
    } catch (const InputError& e) {
      throw InputError(std::string(call) + ": " + e.what());
    }
  }
}

std::vector<double> read_weights(const char* call, int ndims, const double* weights) {
  HCART_REQUIRE(weights != nullptr, call << ": weights is NULL, expected " << ndims
                                         << " values or HCART_WEIGHTS_EQUAL");
  std::vector<double> w(static_cast<std::size_t>(ndims), 1.0);
  if (weights == hcart_weights_equal) return w;
  for (int i = 0; i < ndims; ++i) {
    HCART_REQUIRE(std::isfinite(weights[i]) && weights[i] >= 0,
                  call << ": weights[" << i << "] = " << weights[i]
                       << ", expected a finite value >= 0");
    w[static_cast<std::size_t>(i)] = weights[i];
  }
  return w;
}

void check_grid_arguments(const char* call, int ndims, const int* dims) {
  HCART_REQUIRE(ndims >= 1 && ndims <= 3, call << ": ndims = " << ndims << ", expected 1 to 3");
  HCART_REQUIRE(dims != nullptr, call << ": dims is NULL, expected " << ndims << " values");
  for (int i = 0; i < ndims; ++i)
    HCART_REQUIRE(dims[i] >= 0, call << ": dims[" << i << "] = " << dims[i]
                                     << ", expected 0 (free) or a positive count");
}

// The caller's fixed dims against the rank count, in the caller's words (before hcart pads
// the dims to three directions, which its own message would show).
void check_fixed_dims(const char* call, int ranks, int ndims, const int* dims) {
  // Three ints may pass 64 bits: a product past it is named as such (it divides nothing).
  constexpr std::int64_t most = std::numeric_limits<std::int64_t>::max();
  std::int64_t fixed = 1;
  bool past = false;
  std::string list;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] > 0) {
      past = past || fixed > most / dims[i];
      if (!past) fixed *= dims[i];
    }
    list += (i > 0 ? "," : "") + std::to_string(dims[i]);
  }
  HCART_REQUIRE(!past && ranks % fixed == 0,
                call << ": fixed dims " << list << " (product "
                     << (past ? std::string("past 2^63") : std::to_string(fixed))
                     << ") do not divide the " << ranks << " ranks");
}

Request weighted_request(const char* call, int ranks, int ndims, const int* dims,
                         const int* periods, const std::vector<double>& weights) {
  // Checked before the mesh below exists: its cell counts are not the caller's.
  check_fixed_dims(call, ranks, ndims, dims);
  // The weights alone: a mesh of `ranks` cells per direction (every grid of `ranks` divides
  // it, so the blocks are even and the objective is the weights' own), halo 1.
  Request r;
  r.ndims = ndims;
  r.options.weights.assign(3, 0.0);
  for (int i = 0; i < 3; ++i) {
    const bool used = i < ndims;
    r.spec.global_size[i] = used ? ranks : 1;
    r.spec.halo_width[i] = used ? 1 : 0;
    r.spec.periodic[i] = used && periods != nullptr && periods[i] != 0;
    r.options.dims[i] = used ? dims[i] : 1;
    if (used) r.options.weights[i] = weights[static_cast<std::size_t>(i)];
  }
  return r;
}

Request mesh_request(const char* call, int ranks, int ndims, const std::int64_t* sizes,
                     const int* halos, const double* costs, const int* periods, const int* dims) {
  check_fixed_dims(call, ranks, ndims, dims);
  HCART_REQUIRE(sizes != nullptr,
                call << ": global_sizes is NULL, expected " << ndims << " values");
  HCART_REQUIRE(halos != nullptr, call << ": halo_widths is NULL, expected " << ndims << " values");
  Request r;
  r.ndims = ndims;
  for (int i = 0; i < 3; ++i) {
    const bool used = i < ndims;
    r.spec.global_size[i] = used ? sizes[i] : 1;
    r.spec.halo_width[i] = used ? halos[i] : 0;
    r.spec.periodic[i] = used && periods[i] != 0;
    r.spec.cost_factor[i] = used && costs != nullptr ? costs[i] : 1.0;
    r.options.dims[i] = used ? dims[i] : 1;
  }
  validate(r.spec.to_mesh()); // the C++ API's checks and messages
  return r;
}

void create(MPI_Comm comm_old, const Request& request, const int* periods, int* dims,
            MPI_Comm* comm_cart) {
  const Decomposition decomposition(comm_old, request.spec, request.options);
  int out[3] = {1, 1, 1}, wrap[3] = {0, 0, 0};
  for (int i = 0; i < request.ndims; ++i) {
    out[i] = decomposition.dims()[i];
    wrap[i] = periods[i] != 0 ? 1 : 0;
  }
  // The ranks in the Decomposition's order, on a grid of the caller's dimensions: the
  // trailing directions hcart added are of size 1, so row-major numbering is the same.
  MPI_Comm ordered = MPI_COMM_NULL;
  HCART_MPI_CHECK(MPI_Comm_split(comm_old, 0, decomposition.rank(), &ordered));
  MPI_Comm cart = MPI_COMM_NULL;
  const int rc = MPI_Cart_create(ordered, request.ndims, out, wrap, 0, &cart);
  MPI_Comm_free(&ordered);
  HCART_MPI_CHECK(rc);
  for (int i = 0; i < request.ndims; ++i)
    dims[i] = out[i];
  *comm_cart = cart;
}

int run_and_report(const char* call, const std::function<int()>& body) {
  try {
    last_error.clear();
    return body();
  } catch (const InputError& e) {
    // Every message names the call (hcart's own, from the planner, gain it here).
    const std::string what = e.what();
    return fail(HCART_ERR_ARG, what.rfind(call, 0) == 0 ? what : std::string(call) + ": " + what);
  } catch (const std::exception& e) {
    return fail(HCART_ERR_INTERNAL, std::string(call) + ": " + e.what());
  } catch (...) {
    return fail(HCART_ERR_INTERNAL, std::string(call) + ": an unknown error");
  }
}

// A create call: the arguments both calls share and the call's own (`make_request`) checked
// on every rank and agreed, then the communicator made.
template <class MakeRequest>
int create_collectively(const char* call, MPI_Comm comm_old, int ndims, int* dims,
                        const int* periods, MPI_Info info, MPI_Comm* comm_cart,
                        MakeRequest&& make_request) {
  return run_and_report(call, [&] {
    HCART_REQUIRE(comm_old != MPI_COMM_NULL, call << ": comm_old is MPI_COMM_NULL");
    Request request;
    agree_on_errors(comm_old, [&] {
      check_grid_arguments(call, ndims, dims);
      HCART_REQUIRE(periods != nullptr,
                    call << ": periods is NULL, expected " << ndims << " values");
      HCART_REQUIRE(comm_cart != nullptr, call << ": comm_cart is NULL");
      request = make_request();
      read_info(call, info, request.options);
    });
    create(comm_old, request, periods, dims, comm_cart);
    return HCART_SUCCESS;
  });
}

int error_message(char* string, int* resultlen) {
  if (string == nullptr || resultlen == nullptr) return HCART_ERR_ARG;
  const std::size_t n = std::min(last_error.size(), std::size_t{HCART_MAX_ERROR_STRING - 1});
  std::memcpy(string, last_error.data(), n);
  string[n] = '\0';
  *resultlen = static_cast<int>(n);
  return HCART_SUCCESS;
}

} // namespace
} // namespace hcart::capi

using namespace hcart;
using namespace hcart::capi;

extern "C" int HCART_Dims_create_weighted(int nnodes, int ndims, const double weights[],
                                          MPI_Info info, int dims[]) {
  const char* call = "HCART_Dims_create_weighted";
  return run_and_report(call, [&] {
    HCART_REQUIRE(nnodes >= 1, call << ": nnodes = " << nnodes << ", expected at least 1");
    check_grid_arguments(call, ndims, dims);
    const std::vector<double> w = read_weights(call, ndims, weights);
    Request request = weighted_request(call, nnodes, ndims, dims, nullptr, w);
    read_info(call, info, request.options);
    // No communicator: the machine named, else $HCART_MACHINE, else one level of nnodes.
    auto [text, origin] = machine_description(request.options.machine, "info hcart_machine");
    if (text.empty()) text = "rank:" + std::to_string(nnodes), origin = "nnodes";
    const Machine machine = Machine::parse(text, request.options.placement);
    HCART_REQUIRE(machine.ranks() == nnodes, call << ": machine '" << text << "' (from " << origin
                                                  << ") has " << machine.ranks()
                                                  << " ranks, but nnodes is " << nnodes);
    const Plan plan =
        plan_decomposition(request.spec.to_mesh(), machine, plan_options_of(request.options));
    for (int i = 0; i < ndims; ++i)
      dims[i] = static_cast<int>(plan.dims[static_cast<std::size_t>(i)]);
    return HCART_SUCCESS;
  });
}

extern "C" int HCART_Cart_weighted_create(MPI_Comm comm_old, int ndims, int dims[],
                                          const int periods[], const double weights[],
                                          MPI_Info info, MPI_Comm* comm_cart) {
  const char* call = "HCART_Cart_weighted_create";
  return create_collectively(call, comm_old, ndims, dims, periods, info, comm_cart, [&] {
    const std::vector<double> w = read_weights(call, ndims, weights);
    int size = 1;
    HCART_MPI_CHECK(MPI_Comm_size(comm_old, &size));
    return weighted_request(call, size, ndims, dims, periods, w);
  });
}

extern "C" int HCART_Cart_mesh_create(MPI_Comm comm_old, int ndims, const int64_t global_sizes[],
                                      const int halo_widths[], const double cost_factors[],
                                      const int periods[], MPI_Info info, int dims[],
                                      MPI_Comm* comm_cart) {
  const char* call = "HCART_Cart_mesh_create";
  return create_collectively(call, comm_old, ndims, dims, periods, info, comm_cart, [&] {
    int size = 1;
    HCART_MPI_CHECK(MPI_Comm_size(comm_old, &size));
    return mesh_request(call, size, ndims, global_sizes, halo_widths, cost_factors, periods, dims);
  });
}

extern "C" int HCART_Error_message(char* string, int* resultlen) {
  return error_message(string, resultlen);
}
