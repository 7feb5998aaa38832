// hcart::Grid: one rank's block of the global mesh with the halo it allocates — extents,
// offsets, index ranges and loop policies — and the factory of its fields
// (docs/api-guide.md).
//
//   hcart::Grid grid(decomp);                  // the halo of the spec (its reach)
//   hcart::Grid deep(decomp, {4, 4, 1});       // or one of its own (e.g. deeper)
//   std::array<int, 3> n = grid.local_size();             // owned cells
//   std::array<std::int64_t, 3> off = grid.global_offset();
//   hcart::Field<double> u = grid.make_field<double>("u");
//   hcart::ComponentField<double> f = grid.make_components<double>("f", 19);
//   hcart::Profile<double> rho0 = grid.make_profile<double>("rho0", 2);   // along z
//   grid.fill_profile(rho0, 2, Hydrostatic{...});   // f(global index), halos included
//   hcart::for_each_cell("init", grid.owned_box(), functor);  // hcart/grid/Loops.hpp
//   // local index i is global index off[0] + i - grid.halo_width()[0]
//
// The decomposition weighs the communication reach (the spec's halo widths); the Grid
// allocates the halo it is given, the spec's by default (as Cabana's LocalGrid takes its
// halo cell width from its caller): an app that exchanges several layers at once decides
// that depth after one decomposition. Blocks follow the balanced block rule (base g/d, the
// first g mod d coordinates one more cell). Local index 0 is the first halo layer: owned
// cells are [h_i, h_i + n_i), the whole block with halos [0, n_i + 2 h_i). The Grid refers
// to its Decomposition, which must outlive it.
#pragma once

#include <hcart/grid/Block.hpp>
#include <hcart/grid/Box.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Field.hpp>
#include <hcart/impl/core/HostAccessCheck.hpp>

#include <array>
#include <cstdint>
#include <string>

namespace hcart {

/// \brief A half-open range of local indices [begin, end) in one direction.
struct IndexRange {
  int begin = 0;
  int end = 0;
  int size() const noexcept { return end - begin; }
  bool contains(int i) const noexcept { return begin <= i && i < end; }
};

class Grid {
public:
  /// \brief The block of this rank with the halo of the decomposed spec (its communication
  /// reach). Collective: checks on every rank that each owned extent holds at least one
  /// halo width wherever there is a neighbour.
  /// \throws hcart::InputError (on every rank) when a block is thinner than its halo.
  explicit Grid(const Decomposition& decomp);
  /// \brief The block of this rank with a halo of `halo_width` layers (>= 0 each), deeper
  /// or shallower than the spec's reach (e.g. for several iterations per exchange, or
  /// aligned rows); exchangers move at most this many layers. Collective, as above.
  /// \throws hcart::InputError (on every rank) for a negative width or a block thinner
  /// than its halo where it has a neighbour.
  Grid(const Decomposition& decomp, const std::array<int, 3>& halo_width);
  /// A Grid refers to its Decomposition, which must outlive it: a temporary does not
  /// compile (tests/framework/compile/Lifetimes.cpp).
  explicit Grid(Decomposition&&) = delete;
  Grid(Decomposition&&, const std::array<int, 3>&) = delete;

  const Decomposition& decomposition() const noexcept { return *m_decomp; }
  /// \brief This rank's block: sizes, offsets, halo, and what lies across every side.
  const Block& block() const noexcept { return m_block; }
  /// \brief Owned cells per direction.
  std::array<int, 3> local_size() const noexcept { return m_block.local_size; }
  /// \brief Halo layers per direction (what fields have and exchanges may fill).
  std::array<int, 3> halo_width() const noexcept { return m_block.halo_width; }
  /// \brief Extents of a field: local_size + 2 * halo_width.
  std::array<int, 3> extent() const noexcept { return m_extent; }
  /// \brief Global index of the first owned cell.
  std::array<std::int64_t, 3> global_offset() const noexcept { return m_block.global_offset; }
  std::array<std::int64_t, 3> global_size() const noexcept { return m_block.global_size; }

  /// \brief Owned local indices in direction `dir`: [h, h + n).
  IndexRange owned(int dir) const {
    return {m_block.halo_width.at(dir), m_block.halo_width.at(dir) + m_block.local_size.at(dir)};
  }
  /// \brief True when local cell (i, j, k) is owned by this rank (not a halo cell).
  bool is_owned(int i, int j, int k) const {
    return owned(0).contains(i) && owned(1).contains(j) && owned(2).contains(k);
  }
  /// \brief All local indices in direction `dir`: [0, n + 2h).
  IndexRange with_halo(int dir) const { return {0, m_extent.at(dir)}; }
  /// \brief The global index of local index `local` in direction `dir` (not wrapped).
  std::int64_t global_index(int dir, int local) const {
    return m_block.global_offset.at(dir) + local - m_block.halo_width.at(dir);
  }
  /// \brief The local index of global index `global` in direction `dir`.
  int local_index(int dir, std::int64_t global) const {
    return static_cast<int>(global - m_block.global_offset.at(dir)) + m_block.halo_width.at(dir);
  }

  /// \brief The owned cells: [h, h + n) in every direction.
  Box owned_box() const;
  /// \brief Every cell, halos included: [0, n + 2h).
  Box with_halo_box() const;

  /// \brief A Kokkos MDRange over the owned cells, for kernels launched by hand (hcart's
  /// loops, hcart/grid/Loops.hpp, choose the launch shape themselves).
  GridPolicy owned_policy() const;

  /// \brief Whether `field` (any field type, hcart/grid/Field.hpp) has this grid's extents,
  /// halos included, in every one of its components (at least one).
  template <class F>
  bool fits(const F& field) const noexcept {
    static_assert(is_field_v<F>, "hcart::Grid::fits: a Field or a ComponentField");
    const std::array<std::size_t, 3> cells = FieldTraits<F>::cells(field);
    for (int d = 0; d < 3; ++d)
      if (cells[d] != static_cast<std::size_t>(m_extent[d])) return false;
    return FieldTraits<F>::components(field) >= 1;
  }
  /// \brief Throws hcart::InputError unless `field` has this grid's extents: "`who`: field
  /// 'u' has extents 10x10x10, expected the grid's 12x12x12" (for a field with components
  /// "... 10x10x10 (19 components) ..."). Every function that reads or writes a field of
  /// this grid checks it first. Local: collective callers check it where every rank agrees
  /// (hcart::agree_on_errors, or inside their one reduction).
  template <class F>
  void require_fits(const F& field, const char* who) const {
    if (!fits(field))
      throw_misfit(who, field.label(), FieldTraits<F>::cells(field),
                   FieldTraits<F>::has_components ? FieldTraits<F>::components(field) : -1);
  }

  /// \brief A zero-initialised field of this grid's extents, labelled `name`.
  template <class T>
  Field<T> make_field(const std::string& name) const;
  /// \brief A zero-initialised field of `components` values per cell (at least 1), each
  /// component of this grid's extents, labelled `name`.
  /// Collective over the grid's communicator (every rank makes its block's field).
  /// \throws hcart::InputError (collective: on every rank, one line) where any rank asks
  /// for fewer than 1 component.
  template <class T>
  ComponentField<T> make_components(const std::string& name, int components) const;

  /// \brief A zero-initialised profile along direction `dir` (0-2): one value per local index
  /// of that direction, halos included (extent()[dir] values; local index 0 the first halo
  /// layer, as the fields'), decomposed with the direction. \throws hcart::InputError for a
  /// direction outside 0-2 (every rank asks for the same, so every rank throws).
  template <class T>
  Profile<T> make_profile(const std::string& name, int dir) const {
    require_direction(dir, "make_profile");
    return Profile<T>(name, static_cast<std::size_t>(m_extent[dir]));
  }
  /// \brief Sets every value of `profile` along `dir`, halos included, to function(g) of its
  /// global index g (wrapped into the domain in a periodic direction; outside it, below 0 or
  /// from the global size on, across a physical side): no exchange is needed. `function` is
  /// a device-callable functor returning T. \throws hcart::InputError for a direction
  /// outside 0-2 or a profile of another extent.
  template <class T, class Function>
  void fill_profile(const Profile<T>& profile, int dir, const Function& function) const;

private:
  void require_direction(int dir, const char* who) const;
  void require_profile(std::size_t values, int dir, const std::string& label) const;
  [[noreturn]] void throw_misfit(const char* who, const std::string& label,
                                 const std::array<std::size_t, 3>& extents,
                                 long long components = -1) const;
  void require_components(const std::string& name, int components) const;

  const Decomposition* m_decomp;
  Block m_block;
  std::array<int, 3> m_extent{};
};

namespace impl {
// profile(l) = function(global index of local index l), wrapped where periodic.
template <class T, class Function>
struct FillProfile {
  Profile<T> profile;
  long long first, wrap; // global index of local index 0; the global size if periodic, else 0
  Function function;
  KOKKOS_INLINE_FUNCTION void operator()(int l) const {
    long long g = first + l;
    if (wrap > 0) g = (g % wrap + wrap) % wrap;
    profile(l) = function(g);
  }
};
} // namespace impl

// Defined here, not inline, with the common value types made in the library (Grid.cpp):
// a program's unit does not compile their allocation and zero fill again.
template <class T>
Field<T> Grid::make_field(const std::string& name) const {
  Field<T> field(name, m_extent[0], m_extent[1], m_extent[2]);
  impl::watch_field(field.data(), field.span() * sizeof(T), name.c_str());
  return field;
}
template <class T>
ComponentField<T> Grid::make_components(const std::string& name, int components) const {
  require_components(name, components);
  ComponentField<T> field(name, components, m_extent[0], m_extent[1], m_extent[2]);
  impl::watch_field(field.data(), field.span() * sizeof(T), name.c_str());
  return field;
}
extern template Field<double> Grid::make_field<double>(const std::string&) const;
extern template Field<float> Grid::make_field<float>(const std::string&) const;
extern template Field<int> Grid::make_field<int>(const std::string&) const;
extern template Field<std::int64_t> Grid::make_field<std::int64_t>(const std::string&) const;
extern template ComponentField<double> Grid::make_components<double>(const std::string&, int) const;
extern template ComponentField<float> Grid::make_components<float>(const std::string&, int) const;
extern template ComponentField<int> Grid::make_components<int>(const std::string&, int) const;
extern template ComponentField<std::int64_t> Grid::make_components<std::int64_t>(const std::string&,
                                                                                 int) const;

template <class T, class Function>
void Grid::fill_profile(const Profile<T>& profile, int dir, const Function& function) const {
  require_direction(dir, "fill_profile");
  require_profile(profile.extent(0), dir, profile.label());
  const long long wrap = m_block.periodic[dir] ? m_block.global_size[dir] : 0;
  Kokkos::parallel_for(
      "hcart_profile", Kokkos::RangePolicy<ExecutionSpace>(0, m_extent[dir]),
      impl::FillProfile<T, Function>{profile, global_index(dir, 0), wrap, function});
  Kokkos::fence();
}

} // namespace hcart
