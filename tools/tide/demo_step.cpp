#include "demo_step.h"

#include <stdexcept>

namespace tide::cli {

void expect(bool holds, const std::string& claim) {
  if (!holds) throw std::runtime_error("expected " + claim);
}

std::string indented(const std::string& text, const std::string& prefix) {
  std::string s = prefix;
  for (char ch : text) {
    s.push_back(ch);
    if (ch == '\n') s += prefix;
  }
  return s;
}

void code(DemoContext& c, const std::string& line) { c.out << "    " << line << "\n"; }

void show(DemoContext& c, const std::string& line, const Tensor& t) {
  code(c, line);
  c.out << indented(t.str(), "      ") << "\n";
}

void print_device(DemoContext& c, const std::string& name, const Tensor& t) {
  c.out << "    " << name << ".device is: " << t.device() << "\n";
}

bool same_values(const Tensor& a, const Tensor& b) {
  return a.sizes() == b.sizes() && a.dtype() == b.dtype() &&
         a.cpu().tolist<float>() == b.cpu().tolist<float>();
}

}  // namespace tide::cli
