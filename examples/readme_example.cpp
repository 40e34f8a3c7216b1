// The usage example shown in README.md; built and run by ctest so it keeps compiling.
#include <tide/tide.h>

#include <iostream>

int main() {
  // A GPU when one exists (TIDE_SIM_DEVICES=2 simulates two), else the cpu.
  tide::Device device = tide::cuda::is_available() ? "cuda:0" : "cpu";
  tide::Tensor x = tide::tensor({{1., 2.}, {3., 4.}}, tide::device(device));
  tide::Tensor w = x.new_full({2, 2}, 0.5);  // same device and dtype as x
  tide::Tensor y = (x.matmul(w) + 1).relu();
  std::cout << y << "\n";                            // tensor([[2.5000, 2.5000],
                                                     //         [4.5000, 4.5000]])
  std::cout << y.sum(1).tolist<float>()[1] << "\n";  // 9
}
