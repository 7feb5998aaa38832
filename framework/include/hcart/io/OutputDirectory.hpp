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
#pragma once

#include <mpi.h>

#include <string>

namespace hcart {

/// \brief Creates `directory` if needed and checks that files can be written into it
/// (collective over `comm`). `what`: where the path came from, for the message (may be
/// empty). \throws hcart::InputError (collective) naming the path and why it cannot be used.
void prepare_output_directory(MPI_Comm comm, const std::string& directory,
                              const std::string& what = "");

} // namespace hcart
