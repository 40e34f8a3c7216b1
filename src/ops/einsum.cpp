// einsum (src/ops/ops.yaml, `autograd: composite`).
//
// Note [einsum through bmm]: every equation reduces to table ops that record themselves, with
// no per-element loop of its own. Each operand's dims get labels (letters; an ellipsis' dims
// get labels of their own, aligned on the right across operands, as broadcasting aligns them).
// A label repeated within an operand becomes one dim through diagonal. Then, left to right, the
// running result and the next operand are contracted: a label neither the output nor a later
// operand needs is summed away first if only one of the two has it; the labels both have are
// batch dims (still needed) or contracted dims (not), and the pair becomes one bmm of
// (batch, left, contracted) by (batch, contracted, right) after a permute and reshape of each —
// torch's own strategy (sumproduct_pair), without its path optimisation: operands are taken in
// the order given. A label of size 1 in one operand broadcasts against the other's size.

#include <algorithm>
#include <string>
#include <vector>

#include "ops/index_numbers.h"
#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "tide/ops.h"

namespace tide::detail {
namespace {

constexpr int kLetters = 52;  // 'A'..'Z' are 0..25, 'a'..'z' 26..51 (torch's order)

int letter_label(char c) { return c >= 'A' && c <= 'Z' ? c - 'A' : c - 'a' + 26; }
char label_letter(int l) { return static_cast<char>(l < 26 ? 'A' + l : 'a' + l - 26); }

struct Operand {
  Tensor t;
  std::vector<int> labels;  // one per dim of t
};

/// One term of the equation: its letters' labels, and where its ellipsis is (-1: none).
struct Term {
  std::vector<int> letters;
  int ellipsis_at = -1;
};

Term parse_term(const std::string& eq, size_t begin, size_t end) {
  Term term;
  for (size_t i = begin; i < end; ++i) {
    const char c = eq[i];
    if (c == '.') {
      TIDE_CHECK(term.ellipsis_at < 0 && i + 3 <= end && eq.compare(i, 3, "...") == 0,
                 "[einsum] einsum(): found '.' for operand that is not part of any ellipsis, or a "
                 "second ellipsis in one term (equation \"", eq, "\")");
      term.ellipsis_at = static_cast<int>(term.letters.size());
      i += 2;
    } else {
      TIDE_CHECK((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'), "[einsum] einsum(): invalid "
                 "subscript given at index ", i, " in the equation string, subscripts must be in "
                 "[a-zA-Z]");
      term.letters.push_back(letter_label(c));
    }
  }
  return term;
}

/// Removes dims of `op` (positions, any order) by summing over them.
void sum_away(Operand& op, std::vector<int64_t> dims) {
  if (dims.empty()) return;
  std::sort(dims.rbegin(), dims.rend());
  op.t = op.t.sum(dims);
  for (int64_t d : dims) op.labels.erase(op.labels.begin() + d);
}

int64_t position(const std::vector<int>& labels, int l) {
  return std::find(labels.begin(), labels.end(), l) - labels.begin();
}

bool has(const std::vector<int>& labels, int l) { return position(labels, l) < (int64_t)labels.size(); }

/// A and B contracted over their shared labels not in `keep`; shared labels in `keep` are
/// batch dims. Every label of A and B that is in neither's partner stays.
Operand contract(Operand a, Operand b, const std::vector<bool>& keep) {
  std::vector<int> batch, contracted;
  std::vector<int64_t> sum_a, sum_b;
  for (size_t i = 0; i < a.labels.size(); ++i) {
    const int l = a.labels[i];
    if (!has(b.labels, l)) continue;
    const int64_t j = position(b.labels, l);
    const int64_t sa = a.t.size(i), sb = b.t.size(j);
    if (keep[l]) {
      batch.push_back(l);
    } else if (sa != sb) {  // one is 1: each sums alone (a 1-long sum is the element itself)
      sum_a.push_back(i);
      sum_b.push_back(j);
    } else {
      contracted.push_back(l);
    }
  }
  sum_away(a, sum_a);
  sum_away(b, sum_b);
  std::vector<int> left, right;
  for (int l : a.labels) {
    if (!has(b.labels, l)) left.push_back(l);
  }
  for (int l : b.labels) {
    if (!has(a.labels, l)) right.push_back(l);
  }
  // Each label at the larger of its two sizes (a batch label of size 1 in one broadcasts).
  const auto size = [&](int l) {
    const int64_t sa = has(a.labels, l) ? a.t.size(position(a.labels, l)) : 1;
    return std::max(sa, has(b.labels, l) ? b.t.size(position(b.labels, l)) : int64_t{1});
  };
  std::vector<int64_t> perm_a, perm_b, sizes_a, sizes_b, shape;
  // Appends a group of labels' dims of `op` to its permutation; returns their product.
  const auto add = [&](const Operand& op, const std::vector<int>& group, std::vector<int64_t>& perm,
                       std::vector<int64_t>& sizes) {
    int64_t n = 1;
    for (int l : group) {
      perm.push_back(position(op.labels, l));
      sizes.push_back(size(l));
      n *= size(l);
    }
    return n;
  };
  const int64_t nb = add(a, batch, perm_a, sizes_a);
  add(b, batch, perm_b, sizes_b);
  const int64_t nl = add(a, left, perm_a, sizes_a);
  const int64_t nc = add(a, contracted, perm_a, sizes_a);
  add(b, contracted, perm_b, sizes_b);
  const int64_t nr = add(b, right, perm_b, sizes_b);
  for (const std::vector<int>* group : {&batch, &left, &right}) {
    for (int l : *group) shape.push_back(size(l));
  }
  const Tensor ta = a.t.permute(perm_a).expand(sizes_a).reshape({nb, nl, nc});
  const Tensor tb = b.t.permute(perm_b).expand(sizes_b).reshape({nb, nc, nr});
  Operand out;
  out.t = tide::bmm(ta, tb).view(shape);
  out.labels = batch;
  out.labels.insert(out.labels.end(), left.begin(), left.end());
  out.labels.insert(out.labels.end(), right.begin(), right.end());
  return out;
}

}  // namespace

Tensor plain_einsum(const std::string& equation, const std::vector<Tensor>& tensors) {
  std::string eq;
  for (char c : equation) {
    if (c != ' ') eq.push_back(c);
  }
  const size_t arrow = eq.find("->");
  const size_t lhs_end = arrow == std::string::npos ? eq.size() : arrow;
  std::vector<Term> terms;
  for (size_t begin = 0;;) {
    const size_t comma = eq.find(',', begin);
    const size_t end = comma == std::string::npos || comma > lhs_end ? lhs_end : comma;
    terms.push_back(parse_term(eq, begin, end));
    if (end == lhs_end) break;
    begin = end + 1;
  }
  TIDE_CHECK(terms.size() <= tensors.size(), "[einsum] einsum(): more operands were specified in "
             "the equation (", terms.size(), ") than provided (", tensors.size(), ")");
  TIDE_CHECK(terms.size() >= tensors.size(), "[einsum] einsum(): more operands were provided (",
             tensors.size(), ") than specified in the equation (", terms.size(), ")");
  // Ellipsis dims: as many as the operand has beyond its letters, right-aligned to the most.
  int64_t ellipsis_dims = 0;
  for (size_t i = 0; i < terms.size(); ++i) {
    check_defined(tensors[i], "einsum", "every operand");
    const int64_t n = terms[i].letters.size(), d = tensors[i].dim();
    if (terms[i].ellipsis_at < 0) {
      TIDE_CHECK(n == d, "[einsum] einsum(): the number of subscripts in the equation (", n,
                 ") does not match the number of dimensions (", d, ") for operand ", i,
                 " and no ellipsis was given");
    } else {
      TIDE_CHECK(n <= d, "[einsum] einsum(): the number of subscripts in the equation (", n,
                 ") is more than the number of dimensions (", d, ") for operand ", i);
      ellipsis_dims = std::max(ellipsis_dims, d - n);
    }
  }
  const int labels = kLetters + static_cast<int>(ellipsis_dims);
  std::vector<Operand> ops;
  std::vector<int> count(labels, 0);
  std::vector<int64_t> size_of(labels, 1);
  for (size_t i = 0; i < terms.size(); ++i) {
    Operand op{tensors[i], {}};
    const Term& term = terms[i];
    const int64_t own = tensors[i].dim() - static_cast<int64_t>(term.letters.size());
    for (size_t k = 0; k <= term.letters.size(); ++k) {
      if (static_cast<int>(k) == term.ellipsis_at) {
        for (int64_t e = 0; e < own; ++e) op.labels.push_back(kLetters + ellipsis_dims - own + e);
      }
      if (k < term.letters.size()) op.labels.push_back(term.letters[k]);
    }
    for (size_t d = 0; d < op.labels.size(); ++d) {
      const int l = op.labels[d];
      ++count[l];
      const int64_t s = op.t.size(d);
      TIDE_CHECK(s == 1 || size_of[l] == 1 || size_of[l] == s, "[einsum] einsum(): operands do "
                 "not broadcast: subscript ", l < kLetters ? std::string(1, label_letter(l))
                 : std::string("..."), " has size ", size_of[l], " and ", s);
      if (s != 1) size_of[l] = s;
    }
    // A label repeated within the operand: its diagonal, as one dim at the end (the label
    // still counts twice for the implicit output: "ii" is the trace, as in torch).
    for (size_t d = 0; d < op.labels.size(); ++d) {
      for (size_t e = d + 1; e < op.labels.size(); ++e) {
        if (op.labels[e] != op.labels[d]) continue;
        TIDE_CHECK(op.t.size(d) == op.t.size(e), "[einsum] einsum(): subscript ",
                   label_letter(op.labels[d]), " is repeated for operand ", i, " but the sizes "
                   "don't match, ", op.t.size(d), " != ", op.t.size(e));
        const int l = op.labels[d];
        op.t = op.t.diagonal(0, d, e);
        op.labels.erase(op.labels.begin() + e);
        op.labels.erase(op.labels.begin() + d);
        op.labels.push_back(l);
        d = static_cast<size_t>(-1);  // start over: positions moved
        break;
      }
    }
    ops.push_back(std::move(op));
  }
  // The output: given, or (implicit) the ellipsis, then the letters used once, in torch's order.
  std::vector<int> output;
  if (arrow != std::string::npos) {
    const Term out = parse_term(eq, arrow + 2, eq.size());
    for (size_t k = 0; k <= out.letters.size(); ++k) {
      if (static_cast<int>(k) == out.ellipsis_at) {
        for (int64_t e = 0; e < ellipsis_dims; ++e) output.push_back(kLetters + e);
      }
      if (k == out.letters.size()) break;
      const int l = out.letters[k];
      TIDE_CHECK(!has(output, l), "[einsum] einsum(): output subscript ", label_letter(l),
                 " appears more than once in the output");
      TIDE_CHECK(count[l] > 0, "[einsum] einsum(): output subscript ", label_letter(l),
                 " does not appear in the equation for any input operand");
      output.push_back(l);
    }
  } else {
    for (int64_t e = 0; e < ellipsis_dims; ++e) output.push_back(kLetters + e);
    for (int l = 0; l < kLetters; ++l) {
      if (count[l] == 1) output.push_back(l);
    }
  }
  std::vector<bool> in_output(labels, false);
  for (int l : output) in_output[l] = true;
  // needed[i][l]: the output or an operand after i has label l.
  const auto needed_after = [&](size_t i) {
    std::vector<bool> keep = in_output;
    for (size_t j = i + 1; j < ops.size(); ++j) {
      for (int l : ops[j].labels) keep[l] = true;
    }
    return keep;
  };
  const auto sum_unneeded = [](Operand& op, const std::vector<bool>& keep, const Operand* other) {
    std::vector<int64_t> dims;
    for (size_t d = 0; d < op.labels.size(); ++d) {
      const int l = op.labels[d];
      if (!keep[l] && !(other && has(other->labels, l))) dims.push_back(d);
    }
    sum_away(op, dims);
  };
  Operand result = ops[0];
  for (size_t i = 1; i < ops.size(); ++i) {
    const std::vector<bool> keep = needed_after(i);
    sum_unneeded(result, keep, &ops[i]);
    sum_unneeded(ops[i], keep, &result);
    result = contract(std::move(result), std::move(ops[i]), keep);
  }
  sum_unneeded(result, in_output, nullptr);
  // Output labels all ops left at size 1 (or broadcast) are expanded to their size.
  std::vector<int64_t> perm, shape;
  for (int l : output) {
    perm.push_back(position(result.labels, l));
    shape.push_back(size_of[l]);
  }
  return result.t.permute(perm).expand(shape);
}

}  // namespace tide::detail
