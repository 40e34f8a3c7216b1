#include "tide/nn/sequential.h"

#include <string>

namespace tide::nn {

void Sequential::push_back(std::shared_ptr<Module> module) {
  TIDE_CHECK(module != nullptr, "[nn::Sequential::push_back] expected a module, got a null "
             "pointer; pass a module made with std::make_shared");
  register_module(std::to_string(size()), std::move(module));
}

std::shared_ptr<Module> Sequential::ptr(size_t index) const {
  TIDE_CHECK(index < size(), "[nn::Sequential] index ", index,
             " is out of range for a Sequential of ", size(), " modules; use an index below ",
             size());
  return child_at(index);
}

Tensor Sequential::forward(const Tensor& input) {
  Tensor x = input;
  for (size_t i = 0; i < size(); ++i) x = (*child_at(i))(x);
  return x;
}

std::shared_ptr<Module> Sequential::clone(std::optional<Device> device) const {
  auto copy = std::make_shared<Sequential>();
  for (size_t i = 0; i < size(); ++i) copy->push_back(child_at(i)->clone(device));
  copy->set_own_training(is_training());  // the children's clones kept their own flags
  return copy;
}

void Sequential::clone_from(const Module& other, std::optional<Device> device) {
  *this = std::move(static_cast<Sequential&>(*other.clone(device)));
}

}  // namespace tide::nn
