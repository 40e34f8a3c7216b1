#include "tide/scalar.h"

namespace tide {

std::ostream& operator<<(std::ostream& os, const Scalar& s) {
  switch (s.kind()) {
    case Scalar::Kind::Bool: return os << (s.to_bool() ? "True" : "False");
    case Scalar::Kind::Int: return os << s.to_int64();
    case Scalar::Kind::Float: return os << s.to_double();
  }
  return os;
}

}  // namespace tide
