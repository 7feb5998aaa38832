// hcart-compare: are two field files the same? (in the spirit of AMReX's fcompare)
//
//   hcart-compare A.h5 B.h5 [--field NAME ...] [--bitwise | --tolerance T --relative R]
//                 [--metadata]
//
// For every field the two files share (or the ones named), cell by cell in global index
// order: bitwise equal or not, the largest absolute difference |a - b| and where, the
// largest relative difference |a - b| / max(|a|, |b|) and where (a field with components:
// every value of every component, and the component with the cell). Two fields match, by
// default, when every cell's values are within max(T, R * max(|a|, |b|)) (T = R = 0: equal
// values, so -0 matches +0; a NaN matches only the same NaN); with --bitwise, when every
// cell has the same bits (-0 and +0 differ). The verdict says which was checked. The metadata
// (application, kind, time, step, strategy, machine, process grid, halo, deck, hcart version) is
// compared and its differences reported, but they count only with --metadata: two runs of one
// problem on other rank counts differ there by design. Exit code: 0 when everything compared
// matches, 1 when something differs (a field, a mesh, a field only one file has, metadata with
// --metadata), 2 for bad input (a file that is not a complete hcart field file, a named field one
// file lacks, a negative tolerance). Runs on one process; under mpiexec, rank 0 reads and prints.
#include "FieldDifference.hpp"
#include "Table.hpp"
#include "Text.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/Main.hpp>
#include <hcart/io/FieldFile.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

namespace {

using namespace hcart;
using apps::compare_field;
using apps::FieldDifference;

// The cell (i, j, k) of a flat global index, and its component where the field has some
// ("c3 (i, j, k)").
std::string where(std::int64_t flat, const std::array<std::int64_t, 3>& mesh, int components) {
  if (flat < 0) return "-";
  const std::int64_t k = flat % mesh[2], j = (flat / mesh[2]) % mesh[1],
                     i = (flat / (mesh[2] * mesh[1])) % mesh[0],
                     c = flat / (mesh[2] * mesh[1] * mesh[0]);
  return (components > 0 ? "c" + std::to_string(c) + " " : std::string()) + "(" +
         std::to_string(i) + ", " + std::to_string(j) + ", " + std::to_string(k) + ")";
}

// A field's components in a file's contents (0: none).
int components_of(const FileContents& file, const std::string& name) {
  const auto found = std::find(file.fields.begin(), file.fields.end(), name);
  return found == file.fields.end()
             ? 0
             : file.components[static_cast<std::size_t>(found - file.fields.begin())];
}

std::string number(double x) {
  if (x == 0) return "0";
  char text[32];
  std::snprintf(text, sizeof text, "%.3e", x);
  return text;
}

// Differences of the metadata, one line each ("time 0.5 | 0.75").
std::vector<std::string> metadata_differences(const FileContents& a, const FileContents& b) {
  std::vector<std::string> out;
  auto differ = [&](const std::string& what, const std::string& x, const std::string& y) {
    if (x != y) out.push_back(what + ": " + x + " | " + y);
  };
  auto join3 = [](const auto& v) {
    return std::to_string(v[0]) + "x" + std::to_string(v[1]) + "x" + std::to_string(v[2]);
  };
  differ("application", a.metadata.application, b.metadata.application);
  differ("kind", a.metadata.kind, b.metadata.kind);
  differ("time", number(a.metadata.time), number(b.metadata.time));
  differ("step", std::to_string(a.metadata.step), std::to_string(b.metadata.step));
  differ("strategy", a.strategy, b.strategy);
  differ("machine", a.machine, b.machine);
  differ("process grid", join3(a.dims), join3(b.dims));
  differ("halo", join3(a.halo), join3(b.halo));
  differ("hcart version", a.hcart_version, b.hcart_version);
  if (a.metadata.deck != b.metadata.deck) out.push_back("deck: the resolved decks differ");
  if (a.metadata.state != b.metadata.state) out.push_back("state: the solver states differ");
  return out;
}

int compare(int argc, char** argv, Environment& env) {
  CLI::App app{"hcart-compare: compare the fields of two hcart field files, cell by cell "
               "(exit 0: the same, 1: different, 2: bad input)",
               "hcart-compare"};
  std::string first, second;
  std::vector<std::string> only;
  double tolerance = 0, relative = 0;
  bool with_metadata = false, bitwise = false;
  app.add_option("A", first, "first field file")->required();
  app.add_option("B", second, "second field file")->required();
  app.add_option("--field", only, "compare only this field (repeatable)")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--tolerance", tolerance, "largest absolute difference that matches")
      ->capture_default_str();
  app.add_option("--relative", relative,
                 "largest relative difference |a - b| / max(|a|, |b|) that matches")
      ->capture_default_str();
  app.add_flag("--bitwise", bitwise,
               "match only the same bits in every cell (-0 and +0 differ; no tolerances)");
  app.add_flag("--metadata", with_metadata, "count metadata differences too");
  if (!parse_command_line(app, argc, argv, MPI_COMM_WORLD)) return 0;
  FileContents a, b;
  agree_on_errors(MPI_COMM_WORLD, [&] {
    HCART_REQUIRE(tolerance >= 0 && std::isfinite(tolerance),
                  "--tolerance " << tolerance << ": expected a finite number >= 0");
    HCART_REQUIRE(relative >= 0 && std::isfinite(relative),
                  "--relative " << relative << ": expected a finite number >= 0");
    HCART_REQUIRE(!bitwise || (tolerance == 0 && relative == 0),
                  "--bitwise with --tolerance " << tolerance << " --relative " << relative
                                                << ": expected no tolerance (bits match or not)");
    if (env.rank() != 0) return;
    a = inspect_fields(MPI_COMM_SELF, first);
    b = inspect_fields(MPI_COMM_SELF, second);
    for (const auto& name : only) {
      for (const FileContents* f : {&a, &b}) {
        HCART_REQUIRE(std::find(f->fields.begin(), f->fields.end(), name) != f->fields.end(),
                      "--field " << name << ": file '" << (f == &a ? first : second)
                                 << "' has no such field");
      }
    }
  });
  if (env.rank() != 0) return 0; // rank 0 answers; the exit code is its
  std::cout << "hcart-compare: " << first << " | " << second << "\n";
  bool same = true;
  if (a.mesh != b.mesh) {
    std::cout << "meshes differ: " << apps::join({a.mesh[0], a.mesh[1], a.mesh[2]}) << " | "
              << apps::join({b.mesh[0], b.mesh[1], b.mesh[2]}) << ": the fields cannot be "
              << "compared\nhcart-compare: different\n";
    return 1;
  }
  std::vector<std::string> names = only;
  if (names.empty()) {
    for (const auto& name : a.fields) {
      if (std::find(b.fields.begin(), b.fields.end(), name) != b.fields.end()) {
        names.push_back(name);
      } else {
        std::cout << "field '" << name << "': only in " << first << "\n";
        same = false;
      }
    }
    for (const auto& name : b.fields) {
      if (std::find(a.fields.begin(), a.fields.end(), name) == a.fields.end()) {
        std::cout << "field '" << name << "': only in " << second << "\n";
        same = false;
      }
    }
  }
  apps::Table table(
      {"field", "values", "bitwise", "max |a-b|", "at", "max relative", "at", "beyond tolerance"});
  int equal = 0, mismatched = 0;
  for (const auto& name : names) {
    const int components = components_of(a, name);
    if (components != components_of(b, name)) {
      std::cout << "field '" << name << "': " << components << " | " << components_of(b, name)
                << " components: cannot be compared\n";
      same = false;
      ++mismatched;
      continue;
    }
    const FieldDifference d = compare_field(name, read_whole_field(first, name),
                                            read_whole_field(second, name), tolerance, relative);
    same = same && (bitwise ? d.differing_bits == 0 : d.beyond_tolerance == 0);
    equal += d.differing_bits == 0;
    table.add_row({name, std::to_string(d.cells), d.differing_bits == 0 ? "equal" : "differ",
                   number(d.max_absolute), where(d.at_absolute, a.mesh, components),
                   number(d.max_relative), where(d.at_relative, a.mesh, components),
                   std::to_string(d.beyond_tolerance)});
  }
  table.print(std::cout);
  const std::vector<std::string> meta = metadata_differences(a, b);
  for (const auto& line : meta) {
    std::cout << "metadata " << line << (with_metadata ? "" : " (not counted: --metadata)") << "\n";
  }
  if (with_metadata && !meta.empty()) same = false;
  std::cout << "hcart-compare: " << (same ? "the same" : "different") << " ("
            << (bitwise ? "bitwise" : "values") << "; " << names.size() - mismatched
            << " fields compared, " << equal << " bitwise equal";
  if (!bitwise) {
    std::cout << "; tolerance " << number(tolerance) << ", relative " << number(relative)
              << (tolerance == 0 && relative == 0 ? ": equal values, -0 = +0" : "");
  }
  std::cout << ")\n";
  return same ? 0 : 1;
}

} // namespace

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "hcart-compare",
                         [&](hcart::Environment& env) { return compare(argc, argv, env); });
}
