#include "memory/allocator_config.h"

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <sstream>
#include <string_view>
#include <vector>

#include "tide/error.h"

namespace tide::memory {
namespace {

// Note [TIDE_CUDA_ALLOC_CONF syntax]: torch's lexer: ',', ':', '[' and ']' are tokens of
// their own, whitespace is dropped, everything else forms words. Then `key:value` pairs
// separated by ','. Validation follows torch's parser:
//   max_split_size_mb: integer > 20 (torch: "must be > kLargeBuffer / 1 MiB"), in MiB;
//   roundup_power2_divisions: N, a power of two in [1, 64] (torch accepts any power of two;
//     tide caps it at 64, where 2 MiB intervals are already 32 KiB apart), or the bracket
//     form [MB:N,...,>:N] with MB a power of two and N 0 or a power of two <= 64 — parsed
//     as torch does, including torch's quirk that ">" also overwrites the last MB entry;
//   garbage_collection_threshold: 0 < x < 1.
constexpr const char* kValidKeys =
    "valid options are max_split_size_mb, roundup_power2_divisions, "
    "garbage_collection_threshold";
constexpr size_t kMiB = 1024 * 1024;
constexpr size_t kLargeBufferMiB = 20;

std::vector<std::string> lex(const std::string& spec) {
  std::vector<std::string> tokens;
  std::string word;
  for (char c : spec) {
    if (c == ',' || c == ':' || c == '[' || c == ']') {
      if (!word.empty()) tokens.push_back(std::move(word));
      word.clear();
      tokens.emplace_back(1, c);
    } else if (!std::isspace(static_cast<unsigned char>(c))) {
      word.push_back(c);
    }
  }
  if (!word.empty()) tokens.push_back(std::move(word));
  return tokens;
}

bool is_power_of_2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

int floor_log2(uint64_t v) { return 63 - __builtin_clzll(v); }

class Parser {
 public:
  explicit Parser(const std::string& spec) : spec_(spec), tokens_(lex(spec)) {}

  AllocatorConfig run() {
    AllocatorConfig config;
    for (i_ = 0; i_ < tokens_.size(); ++i_) {
      const std::string key = tokens_[i_];
      if (key == "max_split_size_mb") {
        expect(':', key);
        uint64_t mb = integer(value(key), key);
        TIDE_CHECK(mb > kLargeBufferMiB, prefix(), "CachingAllocator option max_split_size_mb too small, must be > ",
                   kLargeBufferMiB, " (found ", mb, "); it is in MiB: blocks of at least this size are never split");
        if (mb > SIZE_MAX / kMiB) mb = SIZE_MAX / kMiB;
        config.max_split_size = static_cast<size_t>(mb) * kMiB;
      } else if (key == "garbage_collection_threshold") {
        expect(':', key);
        const std::string& text = value(key);
        char* end = nullptr;
        double v = std::strtod(text.c_str(), &end);
        TIDE_CHECK(end && *end == '\0' && !text.empty(), prefix(),
                   "garbage_collection_threshold expects a number in (0, 1), found '", text, "'");
        TIDE_CHECK(v > 0.0, prefix(), "garbage_collect_threshold too small, set it 0.0~1.0 (found ", text,
                   "); it must be > 0 and < 1");
        TIDE_CHECK(v < 1.0, prefix(), "garbage_collect_threshold too big, set it 0.0~1.0 (found ", text,
                   "); it must be > 0 and < 1");
        config.garbage_collection_threshold = v;
      } else if (key == "roundup_power2_divisions") {
        expect(':', key);
        parse_divisions(config);
      } else {
        TIDE_CHECK(false, prefix(), "Unrecognized CachingAllocator option: '", key, "'; ", kValidKeys,
                   " (torch's other options are not implemented)");
      }
      if (i_ + 1 < tokens_.size()) expect(',', key);
    }
    return config;
  }

 private:
  std::string prefix() const { return "[TIDE_CUDA_ALLOC_CONF] in '" + spec_ + "': "; }

  void expect(char c, const std::string& after) {
    ++i_;
    TIDE_CHECK(i_ < tokens_.size() && tokens_[i_] == std::string(1, c), prefix(), "expected '", c,
               "' after '", after, "', found ", i_ < tokens_.size() ? "'" + tokens_[i_] + "'" : "the end",
               "; write key:value pairs separated by ',' (", kValidKeys, ")");
  }

  const std::string& value(const std::string& key) {
    ++i_;
    TIDE_CHECK(i_ < tokens_.size() && tokens_[i_].size() > 0 && tokens_[i_] != "," && tokens_[i_] != ":" &&
                   tokens_[i_] != "]",
               prefix(), "Error, expecting ", key, " value");
    return tokens_[i_];
  }

  uint64_t integer(const std::string& text, const std::string& key) {
    uint64_t v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    TIDE_CHECK(ec == std::errc() && end == text.data() + text.size(), prefix(), key,
               " expects a non-negative integer, found '", text, "'");
    return v;
  }

  void parse_divisions(AllocatorConfig& config) {
    const std::string& first = value("roundup_power2_divisions");
    if (first != "[") {
      uint64_t n = integer(first, "roundup_power2_divisions");
      TIDE_CHECK(is_power_of_2(n) && n <= 64, prefix(),
                 "For roundups, the divisions has to be power of 2 in [1, 64], found ", n);
      config.roundup_power2_divisions = static_cast<int>(n);
      config.roundup_power2_division_table.fill(static_cast<int>(n));
      return;
    }
    config.roundup_power2_divisions = 0;  // the table decides
    auto& table = config.roundup_power2_division_table;
    bool first_value = true;
    size_t last_index = 0;
    for (++i_; i_ < tokens_.size() && tokens_[i_] != "]"; ++i_) {
      const std::string interval = tokens_[i_];
      expect(':', interval);
      uint64_t n = integer(value("roundup_power2_divisions"), "roundup_power2_divisions");
      TIDE_CHECK(n == 0 || (is_power_of_2(n) && n <= 64), prefix(),
                 "For roundups, the divisions has to be power of 2 (at most 64) or 0 to disable roundup, found ", n);
      if (interval == ">") {
        for (size_t k = last_index; k < table.size(); ++k) table[k] = static_cast<int>(n);
      } else {
        uint64_t mb = integer(interval, "roundup_power2_divisions interval");
        TIDE_CHECK(is_power_of_2(mb), prefix(), "For roundups, the intervals have to be power of 2, found ", mb);
        size_t index = static_cast<size_t>(floor_log2(mb));
        if (index > table.size() - 1) index = table.size() - 1;
        if (first_value) {
          for (size_t k = 0; k < index; ++k) table[k] = static_cast<int>(n);
          first_value = false;
        }
        table[index] = static_cast<int>(n);
        last_index = index;
      }
      if (i_ + 1 < tokens_.size() && tokens_[i_ + 1] != "]") expect(',', interval);
    }
    TIDE_CHECK(i_ < tokens_.size(), prefix(), "roundup_power2_divisions: missing ']' to close the list",
               " (form: [256:1,512:2,>:8], sizes in MiB)");
  }

  std::string spec_;
  std::vector<std::string> tokens_;
  size_t i_ = 0;
};

}  // namespace

AllocatorConfig AllocatorConfig::parse(const std::string& spec) { return Parser(spec).run(); }

AllocatorConfig AllocatorConfig::from_env() {
  const char* env = std::getenv("TIDE_CUDA_ALLOC_CONF");
  return parse(env ? env : "");
}

int AllocatorConfig::roundup_divisions_for(size_t size) const {
  if (roundup_power2_divisions != 0) return roundup_power2_divisions;
  // torch's CUDAAllocatorConfig::roundup_power2_divisions(size): intervals start at 1 MiB.
  constexpr int kIntervalStart = 20;
  int log_size = size == 0 ? 0 : floor_log2(size);
  size_t index = log_size > kIntervalStart ? static_cast<size_t>(log_size - kIntervalStart) : 0;
  if (index > kRoundupIntervals - 1) index = kRoundupIntervals - 1;
  return roundup_power2_division_table[index];
}

std::string AllocatorConfig::to_string() const {
  std::ostringstream os;
  const char* sep = "";
  if (max_split_size != std::numeric_limits<size_t>::max()) {
    os << sep << "max_split_size_mb:" << max_split_size / kMiB;
    sep = ",";
  }
  bool table_used = false;
  for (int d : roundup_power2_division_table) table_used |= d != 0;
  if (roundup_power2_divisions != 0) {
    os << sep << "roundup_power2_divisions:" << roundup_power2_divisions;
    sep = ",";
  } else if (table_used) {
    os << sep << "roundup_power2_divisions:[";
    for (size_t k = 0; k < kRoundupIntervals; ++k) {
      os << (k ? "," : "") << (size_t{1} << k)
         << ":" << roundup_power2_division_table[k];
    }
    os << "]";
    sep = ",";
  }
  if (garbage_collection_threshold > 0.0) {
    // The shortest text that parses back to the same double (a stream's 6 digits would not).
    char digits[32];
    const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, garbage_collection_threshold);
    TIDE_INTERNAL_ASSERT(ec == std::errc(), "to_chars failed for ", garbage_collection_threshold);
    os << sep << "garbage_collection_threshold:" << std::string_view(digits, static_cast<size_t>(end - digits));
  }
  return os.str();
}

}  // namespace tide::memory
