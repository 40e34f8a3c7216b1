#include "distributed/collective_header.h"

#include "tide/error.h"

namespace tide::distributed::detail {

CollectiveHeader make_header(CollectiveKind kind, const Tensor& t, int64_t op, int64_t root) {
  CollectiveHeader h;
  h.kind = static_cast<int64_t>(kind);
  if (t.defined()) {
    h.dtype = static_cast<int64_t>(t.dtype());
    h.numel = t.numel();
  }
  h.op = op;
  h.root = root;
  return h;
}

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

std::string mismatch_message(const char* collective, int rank, const CollectiveHeader& mine,
                             int peer, const CollectiveHeader& theirs) {
  return ::tide::detail::concat(
      "[", collective, "] rank ", rank, " called ", describe(mine), " as collective #", mine.seq,
      ", but rank ", peer, " called ", describe(theirs), " as collective #", theirs.seq,
      "; every rank must call the same collectives in the same order with tensors of the same "
      "dtype and size");
}

}  // namespace tide::distributed::detail
