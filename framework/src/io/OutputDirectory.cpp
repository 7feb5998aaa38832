#include <hcart/core/Collective.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/io/OutputDirectory.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace hcart {

void prepare_output_directory(MPI_Comm comm, const std::string& directory,
                              const std::string& what) {
  int rank = 0;
  HCART_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  agree_on_errors(comm, [&] {
    const std::string named =
        (what.empty() ? std::string("output directory") : what) + " \"" + directory + "\"";
    HCART_REQUIRE(!directory.empty(),
                  named << ": expected a directory name (the run writes files into it)");
    if (rank != 0) return;
    std::error_code code;
    HCART_REQUIRE(!std::filesystem::exists(directory, code) ||
                      std::filesystem::is_directory(directory, code),
                  named << ": is a file, expected a directory");
    std::filesystem::create_directories(directory, code);
    HCART_REQUIRE(!code && std::filesystem::is_directory(directory),
                  named << ": cannot be created (" << (code ? code.message() : "not a directory")
                        << ")");
    // A file the run could write: one made and removed.
    const std::filesystem::path probe = std::filesystem::path(directory) / ".hcart-write-test";
    {
      std::ofstream out(probe);
      HCART_REQUIRE(out.good(), named << ": files cannot be written into it");
    }
    std::filesystem::remove(probe, code);
  });
}

void create_parent_directories(const std::string& path, const std::string& who) {
  const auto parent = std::filesystem::path(path).parent_path();
  if (parent.empty()) return;
  std::error_code code;
  std::filesystem::create_directories(parent, code);
  HCART_REQUIRE(!code && std::filesystem::is_directory(parent),
                who << ": directory '" << parent.string() << "' of '" << path
                    << "' cannot be created ("
                    << (code ? code.message() : "a file of that name exists") << ")");
}

void write_text_file(const std::string& path, const std::string& text, const std::string& who) {
  create_parent_directories(path, who);
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary);
    HCART_CHECK(out.good(), who << ": cannot write '" << temporary << "'");
    out << text;
    out.close();
    if (!out.good()) {
      std::remove(temporary.c_str());
      throw Error(who + ": writing '" + temporary + "' failed");
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw Error(who + ": cannot rename '" + temporary + "' to '" + path + "'");
  }
}

} // namespace hcart
