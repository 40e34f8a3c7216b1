#include "distributed/collective_header.h"

namespace tide::distributed::detail {

std::string describe(const CollectiveHeader& h) {
  std::string text = name(static_cast<CollectiveKind>(h.kind));
  if (h.kind == static_cast<int64_t>(CollectiveKind::Barrier)) return text;
  text += "(";
  if (h.op >= 0) text += name(static_cast<ReduceOp>(h.op));
  if (h.root >= 0) text += "src=" + std::to_string(h.root);
  text += ") of " + std::to_string(h.numel) + " " + name(static_cast<Dtype>(h.dtype)) +
          " elements";
  return text;
}

}  // namespace tide::distributed::detail
