// tide: the command line. Everything lives in cli.cpp so the tests can run it in-process.

#include <exception>
#include <iostream>

#include "cli.h"

int main(int argc, char** argv) {
  try {
    return tide::cli::run(argc, argv, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "tide: " << e.what() << "\n";
    return 1;
  }
}
