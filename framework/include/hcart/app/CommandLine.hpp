// hcart::CommandLine: the command line of an hcart application — an input deck, `--set
// table.key=value` overrides and `--deck-reference` — on CLI11, with hcart's conventions:
// the program's help on rank 0 (with a note on Kokkos' own options), and every usage error
// an hcart::InputError on every rank (exit code 2 through hcart::run_main).
//
//   hcart::CommandLine cli("myapp", "myapp: what it does", schema);
//   bool compare = false;
//   cli.app().add_flag("--compare", compare, "...");        // the program's own options
//   if (!cli.parse(argc, argv, MPI_COMM_WORLD)) return 0;    // help or reference printed
//   const hcart::Deck deck = cli.load_deck(MPI_COMM_WORLD);  // DECK plus the --set values
//
// `myapp DECK [--set table.key=value ...] [--deck-reference]`: the deck is required unless
// --deck-reference asks for the Markdown table of every key (printed by parse()).
#pragma once

#include <hcart/io/Deck.hpp>

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

namespace hcart {

/// \brief Runs app.parse(argc, argv) with hcart's conventions. Returns false after printing
/// the help (rank 0 of `comm`) when it was asked for; throws hcart::InputError (collective:
/// every rank parses the same arguments) with CLI11's message for bad arguments.
bool parse_command_line(CLI::App& app, int argc, char** argv, MPI_Comm comm);

class CommandLine {
public:
  /// \brief The command line of `program`, whose decks follow `schema` (copied).
  CommandLine(const std::string& program, const std::string& description, const DeckSchema& schema);

  /// \brief The CLI11 application: add the program's own options and flags to it.
  CLI::App& app() noexcept { return *m_app; }
  /// \brief Lets the program run without a deck: the schema's defaults and the --set
  /// values alone (for examples and small studies).
  void allow_no_deck() noexcept { m_deck_optional = true; }

  /// \brief Parses the command line. Returns false when the program should end now: help
  /// or the deck reference was printed (on rank 0 of `comm`).
  /// \throws hcart::InputError (collective) for bad arguments, or no deck.
  bool parse(int argc, char** argv, MPI_Comm comm);

  /// \brief The deck path given (empty before parse()).
  const std::string& deck_path() const noexcept { return m_deck; }
  /// \brief The --set overrides, in the order given.
  const std::vector<std::string>& overrides() const noexcept { return m_overrides; }

  /// \brief Reads and validates the deck with the overrides on every rank (Deck::load); with
  /// allow_no_deck() and no deck given, the defaults with the overrides.
  /// \throws hcart::InputError (collective) naming the file or the --set, line and key.
  Deck load_deck(MPI_Comm comm) const;

private:
  std::string m_program;
  DeckSchema m_schema;
  std::unique_ptr<CLI::App> m_app;
  std::string m_deck;
  std::vector<std::string> m_overrides;
  bool m_reference = false;
  bool m_deck_optional = false;
};

} // namespace hcart
