// `tide memviz` and `tide replay`: the page's structure, the printed figures and the errors
// for missing and bad snapshots (tools/tide/memviz.h, tools/tide/replay.h).

#include "memviz.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli.h"
#include "replay.h"
#include "tide/error.h"
#include "support/run_cli.h"

using ::testing::HasSubstr;
using ::testing::Not;

namespace {

const std::string kTorchSample = TIDE_TEST_DATA_DIR "/torch_snapshot_sample.json";
const std::string kTorchNoHistory = TIDE_TEST_DATA_DIR "/torch_snapshot_no_history.json";

using tide::test::CliResult;
using tide::test::run_cli;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t pos = 0; (pos = text.find(what, pos)) != std::string::npos; pos += what.size()) ++n;
  return n;
}

std::string torch_sample_page() {
  return tide::cli::memviz_html(
      tide::memory::read_snapshot_file(kTorchSample, "test"), "torch_snapshot_sample.json");
}

TEST(Memviz, PageIsOneSelfContainedHtmlDocument) {
  std::string html = torch_sample_page();
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_THAT(html, HasSubstr("</html>"));
  EXPECT_THAT(html, Not(HasSubstr("http://")));
  EXPECT_THAT(html, Not(HasSubstr("https://")));
  EXPECT_THAT(html, Not(HasSubstr("<link")));
  EXPECT_THAT(html, Not(HasSubstr("src=")));
}

TEST(Memviz, DrawsOneBandPerAllocationAndOneBarPerSegment) {
  std::string html = torch_sample_page();
  EXPECT_EQ(count(html, "<svg class=\"timeline\""), 1u);
  EXPECT_EQ(count(html, "<svg class=\"segments\""), 1u);
  // Five allocations (one alive before the history began), five bands.
  EXPECT_EQ(count(html, "<polygon data-i="), 5u);
  // Three segments, five blocks.
  EXPECT_EQ(count(html, "class=\"seg-outline\""), 3u);
  EXPECT_EQ(count(html, "<rect x="), 5u);
}

TEST(Memviz, LabelsTheAxesInMiBAndHasALegend) {
  std::string html = torch_sample_page();
  EXPECT_THAT(html, HasSubstr("memory allocated (MiB)"));
  EXPECT_THAT(html, HasSubstr("allocation and free events, in order"));
  EXPECT_THAT(html, HasSubstr("class=\"legend\""));
  EXPECT_THAT(html, HasSubstr("active_allocated"));
  EXPECT_THAT(html, HasSubstr("active_pending_free"));
  EXPECT_THAT(html, HasSubstr("inactive"));
  // 20 MiB + 1 KiB peak: ticks every 5 MiB up to 25.
  EXPECT_THAT(html, HasSubstr(">25</text>"));
}

TEST(Memviz, EmbedsEachAllocationsOpScopeAndSize) {
  std::string html = torch_sample_page();
  std::smatch m;
  std::regex data_re("<script type=\"application/json\" id=\"memviz-data\">(.*?)</script>");
  ASSERT_TRUE(std::regex_search(html, m, data_re));
  std::string data = m[1];
  EXPECT_THAT(data, HasSubstr("\"devices\":{\"0\":{\"allocations\":["));
  EXPECT_THAT(data, HasSubstr("\"size\":12582912"));
  EXPECT_THAT(data, HasSubstr("\"scope\":\"forward_pass (train.py:22)\""));
  // The table lists the largest allocation first, with its scope.
  EXPECT_THAT(html, HasSubstr("<td>1</td><td class=\"num\">12.00 MiB</td>"));
  EXPECT_THAT(html, HasSubstr("<title>forward_pass (train.py:22) — 12.00 MiB"));
}

TEST(Memviz, EscapesNamesThatLookLikeMarkup) {
  std::string text = R"({"segments": [{"device": 0, "address": 4096, "total_size": 2097152,
      "stream": 0, "segment_type": "small", "blocks": [
        {"address": 4096, "size": 512, "state": "active_allocated", "op": "<b>op</b>",
         "scope": "</script><script>alert(1)</script>"},
        {"address": 4608, "size": 2096640, "state": "inactive"}]}],
    "device_traces": [[{"action": "alloc", "addr": 4096, "size": 512, "stream": 0,
                        "op": "<b>op</b>", "scope": "</script><script>alert(1)</script>"}]]})";
  std::string html =
      tide::cli::memviz_html(tide::memory::parse_snapshot(text, "x", "test"), "<x>");
  EXPECT_THAT(html, Not(HasSubstr("<b>op</b>")));
  EXPECT_THAT(html, Not(HasSubstr("<script>alert")));
  EXPECT_THAT(html, HasSubstr("&lt;b&gt;op&lt;/b&gt;"));
  EXPECT_EQ(count(html, "</script>"), 2u);  // the data and the hover script
}

TEST(Memviz, SaysSoWhenTheSnapshotHasNoHistory) {
  std::string html = tide::cli::memviz_html(
      tide::memory::read_snapshot_file(kTorchNoHistory, "test"), "no history");
  EXPECT_THAT(html, HasSubstr("No allocation history for this device"));
  EXPECT_THAT(html, HasSubstr("torch.cuda.memory._record_memory_history()"));
  EXPECT_EQ(count(html, "<svg class=\"timeline\""), 0u);
  EXPECT_EQ(count(html, "<svg class=\"segments\""), 1u);
}

TEST(TideMemviz, WritesThePageWhereToldAndSaysSo) {
  std::string out_path = ::testing::TempDir() + "tide_memviz_test.html";
  CliResult r = run_cli({"memviz", kTorchSample.c_str(), "-o", out_path.c_str()});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("wrote " + out_path + " (1 device, 3 segments)"));
  EXPECT_EQ(read_file(out_path),
            tide::cli::memviz_html(tide::memory::read_snapshot_file(kTorchSample, "test"),
                                   kTorchSample));
  EXPECT_THAT(read_file(out_path), HasSubstr("<svg class=\"timeline\""));
  std::remove(out_path.c_str());
}

TEST(TideMemviz, MissingSnapshotSaysWhatToPass) {
  try {
    run_cli({"memviz", "/nonexistent/snap.json", "-o", "/tmp/x.html"});
    FAIL() << "expected tide::Error";
  } catch (const tide::Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[tide memviz] cannot open '/nonexistent/snap.json'"));
    EXPECT_THAT(e.what(), HasSubstr("json.dump(torch.cuda.memory._snapshot(), f)"));
  }
}

TEST(TideMemviz, UnwritableOutputSaysWhatToDo) {
  try {
    run_cli({"memviz", kTorchSample.c_str(), "-o", "/nonexistent-dir/memory.html"});
    FAIL() << "expected tide::Error";
  } catch (const tide::Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[tide memviz] cannot write '/nonexistent-dir/memory.html'"));
    EXPECT_THAT(e.what(), HasSubstr("pass -o with a path in a directory that exists"));
  }
}

TEST(TideMemviz, SnapshotArgumentIsRequired) {
  CliResult r = run_cli({"memviz"});
  EXPECT_NE(r.code, 0);
  EXPECT_THAT(r.err, HasSubstr("snapshot is required"));
}

TEST(TideReplay, PrintsPeaksAndFragmentationOfATorchSnapshot) {
  CliResult r = run_cli({"replay", kTorchSample.c_str()});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("alloc-conf \"\" (torch's defaults):"));
  EXPECT_THAT(r.out, HasSubstr("cuda:0: 5 allocations (1 alive before the history began), 4 "
                               "frees, from 16 trace entries"));
  EXPECT_THAT(r.out, HasSubstr("peak allocated      20.00 MiB (20972544 bytes"));
  EXPECT_THAT(r.out, HasSubstr("peak reserved       34.00 MiB (35651584 bytes)"));
  EXPECT_THAT(r.out, HasSubstr("fragmentation       41.2% (1 - peak allocated / peak reserved)"));
  EXPECT_THAT(r.out, HasSubstr("0.00 MiB allocated, 34.00 MiB reserved, 34.00 MiB reserved but unallocated"));
  EXPECT_THAT(r.out, Not(HasSubstr("note:")));
}

TEST(TideReplay, ComparesSeveralAllocConfs) {
  CliResult r = run_cli({"replay", kTorchSample.c_str(), "--alloc-conf", "",
                         "--alloc-conf", "max_split_size_mb:21"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("alloc-conf \"\" (torch's defaults):"));
  EXPECT_THAT(r.out, HasSubstr("alloc-conf \"max_split_size_mb:21\":"));
  EXPECT_EQ(count(r.out, "    peak reserved "), 2u);
}

TEST(TideReplay, SaysClearlyWhenTheSnapshotHasNoHistory) {
  CliResult r = run_cli({"replay", kTorchNoHistory.c_str()});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("note: the snapshot has no allocation history (its device_traces "
                               "are empty: history was not recorded)"));
  EXPECT_THAT(r.out, HasSubstr("torch.cuda.memory._record_memory_history()"));
  EXPECT_THAT(r.out, HasSubstr("peak reserved       22.00 MiB"));
}

TEST(TideReplay, BadAllocConfNamesTheValidKeys) {
  try {
    run_cli({"replay", kTorchSample.c_str(), "--alloc-conf", "max_split_size_gb:1"});
    FAIL() << "expected tide::Error";
  } catch (const tide::Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("max_split_size_gb"));
    EXPECT_THAT(e.what(), HasSubstr("max_split_size_mb"));
  }
}

TEST(TideReplay, FileThatIsNotJsonSaysWhatToPass) {
  std::string path = ::testing::TempDir() + "tide_replay_not_json.txt";
  {
    std::ofstream f(path);
    f << "segments: none\n";
  }
  try {
    run_cli({"replay", path.c_str()});
    FAIL() << "expected tide::Error";
  } catch (const tide::Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[tide replay] '" + path + "' is not valid JSON"));
    EXPECT_THAT(e.what(), HasSubstr("tide::cuda::dump_snapshot"));
  }
  std::remove(path.c_str());
}

TEST(TideReplay, MissingSnapshotSaysWhatToPass) {
  try {
    run_cli({"replay", "/nonexistent/snap.json"});
    FAIL() << "expected tide::Error";
  } catch (const tide::Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("[tide replay] cannot open '/nonexistent/snap.json': No such "
                                    "file or directory"));
  }
}

}  // namespace
