// hcart::Deck and hcart::DeckSchema without MPI (Deck::parse): defaults, values and where
// they came from, --set overrides, keys under a former name, the resolved deck read back,
// and every kind of bad input refused with the file, the line and the key.
#include <hcart/core/Error.hpp>
#include <hcart/io/Deck.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

hcart::DeckSchema schema() {
  hcart::DeckSchema s;
  s.add("mesh", "size", hcart::DeckType::IntegerList, "[8, 8, 8]", "cells").length(3).at_least(1);
  s.add("solver", "steps", hcart::DeckType::Integer, "10", "steps").at_least(1).at_most(1000);
  s.add("solver", "tolerance", hcart::DeckType::Real, "1e-6", "tolerance").above(0);
  s.add("solver", "method", hcart::DeckType::String, "\"jacobi\"", "method")
      .one_of({"jacobi", "gauss"});
  s.add("solver", "verbose", hcart::DeckType::Boolean, "false", "talk");
  s.add("solver", "name", hcart::DeckType::String, "", "required");
  s.add("solver", "seed", hcart::DeckType::Integer, "0", "any integer");
  s.rename("solver", "iterations", "steps");
  return s;
}

hcart::Deck parse(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return hcart::Deck::parse(text, "test.toml", overrides, schema());
}

// The message of the InputError that parsing throws ("" when none).
std::string error_of(const std::string& text, const std::vector<std::string>& overrides = {}) {
  try {
    parse(text, overrides);
  } catch (const hcart::InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(Deck, ValuesDefaultsAndWhereTheyCameFrom) {
  const hcart::Deck d = parse("[solver]\nname = \"a\"\nsteps = 42\n");
  EXPECT_EQ(d.integer("solver", "steps"), 42);
  EXPECT_TRUE(d.given("solver", "steps"));
  EXPECT_EQ(d.where("solver", "steps"), "deck 'test.toml', line 3");
  EXPECT_DOUBLE_EQ(d.real("solver", "tolerance"), 1e-6);
  EXPECT_FALSE(d.given("solver", "tolerance"));
  EXPECT_EQ(d.where("solver", "tolerance"), "deck 'test.toml' (default)");
  EXPECT_EQ(d.string("solver", "method"), "jacobi");
  EXPECT_FALSE(d.boolean("solver", "verbose"));
  EXPECT_EQ(d.integers("mesh", "size"), (std::vector<std::int64_t>{8, 8, 8}));
  EXPECT_THROW(d.real("solver", "steps"), hcart::Error) << "read as another type";
}

TEST(Deck, OverridesWinAndAreNamed) {
  const hcart::Deck d =
      parse("[solver]\nname = \"a\"\nsteps = 42\n", {"solver.steps=7", "solver.method=gauss"});
  EXPECT_EQ(d.integer("solver", "steps"), 7);
  EXPECT_EQ(d.where("solver", "steps"), "--set solver.steps=7");
  EXPECT_EQ(d.string("solver", "method"), "gauss") << "a bare word for a string key";
  EXPECT_NE(error_of("[solver]\nname = \"a\"\n", {"solver.steps=0"})
                .find("--set solver.steps=0: [solver] steps = 0: expected >= 1"),
            std::string::npos);
  EXPECT_NE(error_of("[solver]\nname = \"a\"\n", {"steps=3"}).find("expected table.key=value"),
            std::string::npos);
  // A value that is no TOML at all: the key and the type it takes, not a parser's words.
  EXPECT_EQ(error_of("[solver]\nname = \"a\"\n", {"solver.tolerance=abc"}),
            "--set solver.tolerance=abc: [solver] tolerance = abc: expected a number (written "
            "as in a deck, e.g. the default 1e-6)");
  EXPECT_EQ(error_of("[solver]\nname = \"a\"\n", {"mesh.size=[4,4"}),
            "--set mesh.size=[4,4: [mesh] size = [4,4: expected a list of integers (written "
            "as in a deck, e.g. the default [8, 8, 8])");
  // A TOML value of another type: the key's own check says so.
  EXPECT_NE(error_of("[solver]\nname = \"a\"\n", {"solver.steps=1.5"})
                .find("[solver] steps = 1.5: expected an integer"),
            std::string::npos);
}

TEST(Deck, AKeyUnderItsFormerName) {
  const hcart::Deck d = parse("[solver]\nname = \"a\"\niterations = 5\n");
  EXPECT_EQ(d.integer("solver", "steps"), 5);
  ASSERT_EQ(d.notes().size(), 1u);
  EXPECT_NE(d.notes()[0].find("iterations is the former name of steps"), std::string::npos)
      << d.notes()[0];
  EXPECT_EQ(parse("[solver]\nname = \"a\"\n", {"solver.iterations=9"}).integer("solver", "steps"),
            9);
  EXPECT_NE(error_of("[solver]\nname = \"a\"\nsteps = 2\niterations = 5\n").find("given twice"),
            std::string::npos);
  EXPECT_NE(schema().reference().find("`iterations` (now `steps`)"), std::string::npos);
}

TEST(Deck, TheResolvedDeckReadsBackTheSame) {
  const hcart::Deck d =
      parse("[solver]\nname = \"x \\\"y\\\"\"\ntolerance = 0.1\n", {"mesh.size=[1,2,3]"});
  const hcart::Deck again = parse(d.resolved());
  EXPECT_EQ(again.resolved(), d.resolved());
  EXPECT_EQ(again.string("solver", "name"), "x \"y\"");
  EXPECT_DOUBLE_EQ(again.real("solver", "tolerance"), 0.1);
  EXPECT_EQ(again.integers("mesh", "size"), (std::vector<std::int64_t>{1, 2, 3}));
}

TEST(Deck, BadInputNamesTheFileTheLineAndTheKey) {
  const std::string named = "[solver]\nname = \"a\"\n";
  struct Case {
    std::string text, expected;
  };
  const std::vector<Case> cases = {
      {named + "stepz = 3\n", "line 3: unknown key 'stepz' in [solver]; known keys: steps"},
      {named + "[output]\n", "unknown table [output]"},
      {named + "steps = 2.5\n", "line 3: [solver] steps = 2.5: expected an integer"},
      {named + "steps = 1001\n", "[solver] steps = 1001: expected <= 1000"},
      {named + "steps = 99999999999999999999\n",
       "[solver] steps = 99999999999999999999: out of range, expected >= 1, <= 1000"},
      {named + "seed = -99_999_999_999_999_999_999\n",
       "[solver] seed = -99_999_999_999_999_999_999: out of range, expected an integer from "
       "-9223372036854775808 to 9223372036854775807"},
      {named + "tolerance = 0\n", "[solver] tolerance = 0: expected > 0"},
      {named + "method = \"sor\"\n", "expected one of \"jacobi\", \"gauss\""},
      {named + "[mesh]\nsize = [1, 2]\n", "expected 3 entries, got 2"},
      {named + "[mesh]\nsize = [8, 8\n", "line 4: syntax error"},
      {"[solver]\nsteps = 3\n", "missing key 'name' in [solver]"},
      {"steps = 3\n", "key 'steps' outside a table"},
  };
  for (const Case& c : cases) {
    const std::string what = error_of(c.text);
    EXPECT_NE(what.find("deck 'test.toml'"), std::string::npos) << c.text << " -> " << what;
    EXPECT_NE(what.find(c.expected), std::string::npos) << c.text << " -> " << what;
  }
}
