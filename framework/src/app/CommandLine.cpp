#include <hcart/app/CommandLine.hpp>
#include <hcart/core/Collective.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>

#include <iostream>

namespace hcart {

bool parse_command_line(CLI::App& app, int argc, char** argv, MPI_Comm comm) {
  int rank = 0;
  HCART_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  // Kokkos has taken its own options out of argv (hcart::Environment); say where they are.
  app.footer("Kokkos options such as --kokkos-num-threads=N (OpenMP threads per rank) and "
             "--kokkos-device-id=N are accepted too; --kokkos-help lists them.");
  try {
    app.parse(argc, argv);
    return true;
  } catch (const CLI::CallForHelp&) {
    if (rank == 0) std::cout << app.help();
    return false;
  } catch (const CLI::ParseError& e) {
    InputError error(std::string(e.what()) + " (see --help)");
    error.set_collective(true);
    throw error;
  }
}

CommandLine::CommandLine(const std::string& program, const std::string& description,
                         const DeckSchema& schema)
    : m_program(program), m_schema(schema),
      m_app(std::make_unique<CLI::App>(description, program)) {
  m_app->add_option("deck", m_deck, "input deck (TOML)");
  // One table.key=value per --set, so that a deck named after one is the deck.
  m_app
      ->add_option("--set", m_overrides,
                   "override a deck value: --set table.key=value, once per key (strings need "
                   "no quotes)")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  m_app->add_flag("--deck-reference", m_reference,
                  "print every deck key with its type, default and meaning (Markdown) and exit");
}

bool CommandLine::parse(int argc, char** argv, MPI_Comm comm) {
  if (!parse_command_line(*m_app, argc, argv, comm)) return false;
  if (m_reference) {
    int rank = 0;
    HCART_MPI_CHECK(MPI_Comm_rank(comm, &rank));
    if (rank == 0) std::cout << m_schema.reference();
    return false;
  }
  if (m_deck.empty() && !m_deck_optional) {
    InputError error("a deck is required: " + m_program +
                     " DECK [--set table.key=value] (see --help)");
    error.set_collective(true);
    throw error;
  }
  return true;
}

Deck CommandLine::load_deck(MPI_Comm comm) const {
  if (m_deck.empty()) {
    Deck deck;
    agree_on_errors(comm, [&] { deck = Deck::parse("", "(defaults)", m_overrides, m_schema); });
    return deck;
  }
  return Deck::load(comm, m_deck, m_overrides, m_schema);
}

} // namespace hcart
