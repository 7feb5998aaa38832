// Deck pieces hcart's applications share: the [output] table, its directory and report, and
// what a restart's deck changed (the [decomposition] table is the framework's:
// hcart/app/DecompositionTable.hpp; the files a run writes: RunFiles.hpp).
#pragma once

#include <hcart/app/DecompositionTable.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/GridHierarchy.hpp>
#include <hcart/grid/GridSpec.hpp>
#include <hcart/io/Deck.hpp>
#include <hcart/io/FieldFile.hpp>
#include <hcart/mapping/Strategy.hpp>

#include <string>
#include <vector>

namespace hcart::apps {

/// \brief The [output] table every application has.
struct OutputSettings {
  std::string directory = "output";
  std::string timers_json;   ///< file name inside directory for the JSON report; empty: none
  long every = 0;            ///< field output every this many iterations or steps
  long checkpoint_every = 0; ///< checkpoints every this many iterations or steps (0: none)
  long checkpoint_keep = 2;  ///< the newest checkpoints of this run kept (0: all)
  std::string restart;       ///< checkpoint to continue from (empty: start afresh)
  std::string deck;          ///< the resolved deck, stored in every file
};

/// \brief What an application reads from a validated deck: the mesh, the decomposition,
/// its own `Settings` and [output].
template <class Settings>
struct AppConfig {
  GridSpec spec;
  DecompositionOptions decomposition;
  Settings settings;
  OutputSettings output;
  /// Every value the application changed from what the deck said, and why: printed before
  /// the run (the echoed deck shows what was asked for).
  std::vector<std::string> adjustments;
  /// The deck itself, for errors that name its keys (hcart::decompose).
  Deck deck;
};

/// \brief Which ranks keep a multigrid's coarse levels (Jacobi3D's [multigrid], ZEUS's
/// [gravity]): the machine's rule (the cores of a node first), every k-th rank, or none
/// (every level on every rank).
enum class Agglomeration { Machine, Stride, None };
/// \brief Declares `table`'s key agglomeration ("machine", "stride" or "none"; machine).
void add_agglomeration_key(DeckSchema& schema, const std::string& table);
/// \brief `table`'s agglomeration from a validated deck.
Agglomeration read_agglomeration(const Deck& deck, const std::string& table);
/// \brief `h` with the rule `a`: the machine's or the stride rule, or none (no level moves
/// onto fewer ranks: agglomerate_below 0).
void apply_agglomeration(Agglomeration a, HierarchyOptions& h);

/// \brief Declares [output] directory, timers_json, every, checkpoint_every,
/// checkpoint_keep, restart and progress_seconds; `unit` counts the run ("iterations",
/// "steps"), `every_help` says what `every` writes.
void add_output_keys(DeckSchema& schema, const std::string& unit, const std::string& every_help);
/// \brief Reads [output] (all but progress_seconds). \throws hcart::InputError for a
/// timers_json that is not a plain file name.
OutputSettings read_output(const Deck& deck);

/// \brief The strategies compare mode runs (hcart::compared_strategies: manual only where
/// `options.dims` fixes every direction). With equal blocks, mpi only where MPI_Dims_create's
/// grid of `ranks` divides `spec`'s mesh; where not, `notes` gets a line saying it is left out.
std::vector<Strategy> compare_strategies(const DecompositionOptions& options, const GridSpec& spec,
                                         int ranks, std::vector<std::string>& notes);
/// \brief `options` for one compare run: the strategy set, dims kept only for manual.
DecompositionOptions for_strategy(DecompositionOptions options, Strategy strategy);

/// \brief Makes sure, before the run, that the output directory can take the run's files
/// when `writes` (field files, checkpoints or the report will be written): a directory name
/// is given, it exists or can be created, and a file can be written into it. Collective.
/// \throws hcart::InputError (collective) naming [output] directory and the reason.
void prepare_output(MPI_Comm comm, const OutputSettings& output, bool writes);

/// \brief Writes `text` to output.directory/output.timers_json through a temporary file, on
/// rank 0 of `comm`; nothing when timers_json is empty. Collective: an error (a directory
/// that cannot be created) reaches every rank.
void write_report(MPI_Comm comm, const OutputSettings& output, const std::string& text);

/// \brief The deck values a restart runs with that differ from those its checkpoint's run
/// had (both resolved decks, as the files record them), one line per key:
/// "[hydro] gamma = 1.67 here, 1.4 in the checkpoint's run". Left out: [output] and
/// [decomposition] (a restart changes them on purpose), and `run_keys` ("table.key": the
/// run's length and other settings that do not change the mathematics).
std::vector<std::string> restart_differences(const std::string& checkpoint_deck,
                                             const std::string& deck,
                                             const std::vector<std::string>& run_keys);

/// \brief Prints restart_differences on rank 0 of `comm` as notes of `application`.
void note_restart_differences(MPI_Comm comm, const char* application,
                              const std::string& checkpoint_deck, const std::string& deck,
                              const std::vector<std::string>& run_keys);

} // namespace hcart::apps
