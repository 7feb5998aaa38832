// hcart::prepare_output_directory: a directory a run will write into, checked before the run
// starts (docs/api-guide.md, "Field files").
//
//   hcart::prepare_output_directory(MPI_COMM_WORLD, "out/run1", "[output] directory");
//
// Rank 0 creates the directory (and its parents) when it does not exist and writes and
// removes a probe file in it; every rank learns the outcome. A path that is a file, a
// directory that cannot be created or written into, is an hcart::InputError on every rank
// naming the path (and `what`, the setting it came from, when given) before any work is
// done, not an error at the first output after hours of computing. hcart::write_fields
// creates missing parent directories itself; this check finds the ones it could not.
//
//   hcart::create_parent_directories("out/run1/timers.json", "timers");  // out/run1/
//
// Every writer of hcart (field files, XDMF, the apps' reports, the tools' machine and
// launch files) takes a path as users write it: a bare file name, ./name, a relative path
// whose directories may not exist yet, or an absolute path.
#pragma once

#include <mpi.h>

#include <string>

namespace hcart {

/// \brief Creates `directory` if needed and checks that files can be written into it
/// (collective over `comm`). `what`: where the path came from, for the message (may be
/// empty). \throws hcart::InputError (collective) naming the path and why it cannot be used.
void prepare_output_directory(MPI_Comm comm, const std::string& directory,
                              const std::string& what = "");

/// \brief Creates the missing directories above the file `path` (none for a bare file
/// name or "./name"; relative paths are taken from the working directory). Local: for the
/// rank that writes the file. `who` starts the message.
/// \throws hcart::InputError naming the directory and the file when it cannot be created
/// (a file of that name, no permission).
void create_parent_directories(const std::string& path, const std::string& who);

/// \brief Writes `text` to the file `path` whole or not at all: into `path.tmp`, renamed to
/// `path` when complete, the directories above made first (create_parent_directories).
/// Local: for the rank that writes the file. `who` starts the messages.
/// \throws hcart::InputError when a directory above cannot be created; hcart::Error when the
/// file cannot be written or renamed (the temporary is removed).
void write_text_file(const std::string& path, const std::string& text, const std::string& who);

} // namespace hcart
