// Plans a decomposition with the installed hcart and checks it: prints "consumer ok".
#include <hcart/hcart.hpp>

#include <iostream>

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "consumer", [](hcart::Environment& env) {
    const hcart::Machine machine = hcart::Machine::parse("node:8 socket:2 core:16");
    const hcart::Mesh mesh{{2048, 1024, 512}, {1, 1, 1}, {false, false, false}, {}};
    const hcart::Plan plan = hcart::make_plan(mesh, machine, {});
    const bool ok = plan.dims == std::vector<std::int64_t>{16, 8, 2};
    if (env.rank() == 0) {
      std::cout << "hcart " << hcart::version << " on " << env.size() << " ranks: dims "
                << plan.dims[0] << "x" << plan.dims[1] << "x" << plan.dims[2] << "\n"
                << (ok ? "consumer ok" : "consumer WRONG") << std::endl;
    }
    return ok ? 0 : 1;
  });
}
