// data::MNIST: IDX files the test writes (plain and gzip, train and test splits), every
// malformation's message, and Debian's Fashion-MNIST where it is installed.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "data/idx_file.h"
#include "data/idx_writer.h"
#include "support/error_of.h"
#include "tide/tide.h"

namespace tide {
namespace {

using data::MNIST;
using test::error_of;
using test::TempDir;
using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr const char* kTrainImages = "train-images-idx3-ubyte";
constexpr const char* kTrainLabels = "train-labels-idx1-ubyte";
constexpr const char* kTestImages = "t10k-images-idx3-ubyte";
constexpr const char* kTestLabels = "t10k-labels-idx1-ubyte";
constexpr const char* kFashionMnist = "/usr/share/datasets/fashion-mnist";

/// Image i as read back: pixel(i, j) / 255 for j in row-major order.
void expect_image(const Tensor& image, size_t i) {
  ASSERT_EQ(image.sizes(), (std::vector<int64_t>{1, 28, 28}));
  const std::vector<float> v = image.contiguous().tolist<float>();
  for (size_t j = 0; j < v.size(); ++j) {
    ASSERT_EQ(v[j], static_cast<float>(test::pixel(i, j)) / 255.0f) << "image " << i << " pixel " << j;
  }
}

TEST(MNIST, ReadsPlainIdxFilesAsFloatImagesInZeroOneAndInt64Labels) {
  TempDir dir;
  test::write_plain(dir / kTrainImages, test::image_file(5));
  test::write_plain(dir / kTrainLabels, test::label_file(5));
  MNIST mnist(dir.str());
  EXPECT_TRUE(mnist.is_train());
  ASSERT_EQ(mnist.size(), 5u);
  EXPECT_EQ(mnist.images().sizes(), (std::vector<int64_t>{5, 1, 28, 28}));
  EXPECT_EQ(mnist.images().dtype(), kFloat32);
  EXPECT_EQ(mnist.targets().dtype(), kInt64);
  EXPECT_EQ(mnist.targets().tolist<int64_t>(), (std::vector<int64_t>{0, 1, 2, 3, 4}));
  for (size_t i = 0; i < 5; ++i) expect_image(mnist.get(i).data, i);
  const data::Example e = mnist.get(3);
  EXPECT_EQ(e.target.dim(), 0);
  EXPECT_EQ(e.target.item<int64_t>(), 3);
  // get() returns views of the dataset's one image tensor, not copies.
  EXPECT_EQ(e.data.storage().data(), mnist.images().storage().data());
}

TEST(MNIST, ReadsGzipFilesAndTheTestSplit) {
  TempDir dir;
  test::write_gzip(dir / (std::string(kTestImages) + ".gz"), test::image_file(3));
  test::write_gzip(dir / (std::string(kTestLabels) + ".gz"), test::label_file(3));
  MNIST mnist(dir.str(), /*train=*/false);
  EXPECT_FALSE(mnist.is_train());
  ASSERT_EQ(mnist.size(), 3u);
  for (size_t i = 0; i < 3; ++i) expect_image(mnist.get(i).data, i);
  EXPECT_EQ(mnist.targets().tolist<int64_t>(), (std::vector<int64_t>{0, 1, 2}));
  // The train split is another pair of files, absent here.
  EXPECT_THAT(error_of([&] { MNIST train(dir.str()); }),
              AllOf(HasSubstr("[MNIST] cannot find train-images-idx3-ubyte in " + dir.str()),
                    HasSubstr(".gz")));
}

TEST(MNIST, PrefersThePlainFileWhenBothFormsExist) {
  TempDir dir;
  test::write_plain(dir / kTrainImages, test::image_file(2));
  test::write_plain(dir / kTrainLabels, test::label_file(2));
  test::write_plain(dir / (std::string(kTrainImages) + ".gz"), {1, 2, 3});  // garbage, unread
  EXPECT_EQ(MNIST(dir.str()).size(), 2u);
}

TEST(MNIST, GetBatchGathersRowsAndChecksIndices) {
  TempDir dir;
  test::write_plain(dir / kTrainImages, test::image_file(6));
  test::write_plain(dir / kTrainLabels, test::label_file(6));
  MNIST mnist(dir.str());
  const std::vector<size_t> idx = {4, 1, 5};
  const data::Example b = mnist.get_batch(idx);
  ASSERT_EQ(b.data.sizes(), (std::vector<int64_t>{3, 1, 28, 28}));
  EXPECT_EQ(b.target.tolist<int64_t>(), (std::vector<int64_t>{4, 1, 5}));
  for (size_t j = 0; j < idx.size(); ++j) expect_image(b.data[static_cast<int64_t>(j)], idx[j]);
  const std::vector<size_t> bad = {0, 6};
  EXPECT_THAT(error_of([&] { mnist.get_batch(bad); }),
              HasSubstr("[MNIST::get_batch] sample index 6 is out of range for a dataset of 6 samples"));
  EXPECT_THAT(error_of([&] { mnist.get(6); }), HasSubstr("[MNIST::get] index 6 is out of range"));
}

// ---- malformed files: each message names the file and what is wrong

class MalformedMnist : public ::testing::Test {
 protected:
  /// Writes a good label file of n labels and `images` as the image file, then returns the
  /// error of reading the directory.
  std::string error_with_images(const std::vector<uint8_t>& images, uint32_t n = 4) {
    test::write_plain(dir_ / kTrainImages, images);
    test::write_plain(dir_ / kTrainLabels, test::label_file(n));
    return error_of([&] { MNIST mnist(dir_.str()); });
  }
  std::string images_path() const { return dir_ / kTrainImages; }
  TempDir dir_;
};

TEST_F(MalformedMnist, AMissingRootDirectoryIsNamed) {
  EXPECT_THAT(error_of([&] { MNIST mnist(dir_ / "nowhere"); }),
              AllOf(HasSubstr("[MNIST] the root directory " + (dir_ / "nowhere") + " does not exist"),
                    HasSubstr("fashion-mnist")));
}

TEST_F(MalformedMnist, AMissingLabelFileIsNamedWithBothFormsTried) {
  test::write_plain(dir_ / kTrainImages, test::image_file(2));
  EXPECT_THAT(error_of([&] { MNIST mnist(dir_.str()); }),
              AllOf(HasSubstr("cannot find train-labels-idx1-ubyte"),
                    HasSubstr("neither " + (dir_ / kTrainLabels) + " nor " + (dir_ / kTrainLabels) + ".gz")));
}

TEST_F(MalformedMnist, SwappedFilesHaveTheWrongMagicNumber) {
  EXPECT_THAT(error_with_images(test::label_file(4)),
              AllOf(HasSubstr(images_path() + " is not an IDX file of images"),
                    HasSubstr("its magic number is 0x00000801, expected 0x00000803"),
                    HasSubstr("images and labels swapped?")));
}

TEST_F(MalformedMnist, AFileThatIsNotIdxAtAllSaysSo) {
  const std::string text = "<html>404 Not Found</html>";
  EXPECT_THAT(error_with_images(std::vector<uint8_t>(text.begin(), text.end())),
              AllOf(HasSubstr(images_path()), HasSubstr("does not start like an IDX file")));
}

TEST_F(MalformedMnist, ElementsOtherThanUnsignedBytesAreRejected) {
  std::vector<uint8_t> bytes = test::image_file(4);
  bytes[2] = 0x0D;  // float32 elements
  EXPECT_THAT(error_with_images(bytes),
              AllOf(HasSubstr("0x00000D03"), HasSubstr("its elements are not unsigned bytes")));
}

TEST_F(MalformedMnist, ImagesOfAnotherSizeAreRejected) {
  EXPECT_THAT(error_with_images(test::image_file(4, 32, 32)),
              AllOf(HasSubstr(images_path() + " holds images of 32x32 pixels, expected 28x28")));
}

TEST_F(MalformedMnist, AnEmptyFileIsTruncated) {
  EXPECT_THAT(error_with_images({}),
              AllOf(HasSubstr(images_path()), HasSubstr("it has 0 bytes"),
                    HasSubstr("truncated or empty")));
}

TEST_F(MalformedMnist, ATruncatedHeaderIsNamed) {
  std::vector<uint8_t> bytes = test::image_file(4);
  bytes.resize(10);
  EXPECT_THAT(error_with_images(bytes),
              AllOf(HasSubstr(images_path() + " is truncated: its header needs 16 bytes"),
                    HasSubstr("the file has 10")));
}

TEST_F(MalformedMnist, ShortDataIsTruncated) {
  std::vector<uint8_t> bytes = test::image_file(4);
  bytes.resize(bytes.size() - 100);
  EXPECT_THAT(error_with_images(bytes),
              AllOf(HasSubstr(images_path() + " is truncated: its header announces 3136 bytes of images"),
                    HasSubstr("but the file has 3036 after the header"), HasSubstr("download it again")));
}

TEST_F(MalformedMnist, SurplusDataIsRejected) {
  std::vector<uint8_t> bytes = test::image_file(4);
  bytes.push_back(0);
  EXPECT_THAT(error_with_images(bytes),
              AllOf(HasSubstr(images_path() + " has 1 bytes after the 3136 bytes of images its header announces")));
}

TEST_F(MalformedMnist, MismatchedCountsNameBothFiles) {
  EXPECT_THAT(error_with_images(test::image_file(5), /*n=*/4),
              AllOf(HasSubstr(images_path() + " holds 5 images but " + (dir_ / kTrainLabels) +
                              " holds 4 labels")));
}

TEST_F(MalformedMnist, ATruncatedGzipFileIsCorruptOrTruncated) {
  const std::string gz = dir_ / (std::string(kTrainImages) + ".gz");
  test::write_gzip(gz, test::image_file(40));
  std::vector<uint8_t> bytes = test::read_all(gz);
  bytes.resize(bytes.size() / 2);
  test::write_plain(gz, bytes);
  test::write_plain(dir_ / kTrainLabels, test::label_file(40));
  EXPECT_THAT(error_of([&] { MNIST mnist(dir_.str()); }),
              AllOf(HasSubstr("[MNIST] cannot read " + gz), HasSubstr("corrupt or truncated")));
}

TEST_F(MalformedMnist, CorruptGzipDataIsReported) {
  const std::string gz = dir_ / (std::string(kTrainImages) + ".gz");
  test::write_gzip(gz, test::image_file(40));
  std::vector<uint8_t> bytes = test::read_all(gz);
  for (size_t i = 20; i < bytes.size() - 8; i += 7) bytes[i] ^= 0x5A;
  test::write_plain(gz, bytes);
  test::write_plain(dir_ / kTrainLabels, test::label_file(40));
  EXPECT_THAT(error_of([&] { MNIST mnist(dir_.str()); }),
              AllOf(HasSubstr("[MNIST] cannot read " + gz), HasSubstr("corrupt or truncated")));
}

TEST_F(MalformedMnist, AnUnreadableFileIsNamed) {
  if (getuid() == 0) GTEST_SKIP() << "root reads files whatever their permissions";
  test::write_plain(dir_ / kTrainImages, test::image_file(2));
  test::write_plain(dir_ / kTrainLabels, test::label_file(2));
  std::filesystem::permissions(dir_ / kTrainImages, std::filesystem::perms::none);
  EXPECT_THAT(error_of([&] { MNIST mnist(dir_.str()); }),
              AllOf(HasSubstr("[MNIST] cannot open " + images_path()), HasSubstr("ermission denied")));
}

// ---- Debian's dataset-fashion-mnist

TEST(FashionMnist, TrainAndTestSplitsLoadWithTheirKnownStatistics) {
  if (!std::filesystem::exists(std::string(kFashionMnist) + "/train-images-idx3-ubyte.gz")) {
    GTEST_SKIP() << kFashionMnist << " is absent: install Debian's dataset-fashion-mnist to run this";
  }
  MNIST train(kFashionMnist);
  ASSERT_EQ(train.size(), 60000u);
  EXPECT_EQ(train.images().sizes(), (std::vector<int64_t>{60000, 1, 28, 28}));
  EXPECT_DOUBLE_EQ(train.images().min().item<double>(), 0.0);
  EXPECT_DOUBLE_EQ(train.images().max().item<double>(), 1.0);
  // torchvision's normalization constants for Fashion-MNIST: mean 0.2860, std 0.3530.
  EXPECT_NEAR(train.images().to(kFloat64).mean().item<double>(), 0.2860, 5e-4);
  // Ten classes of 6000 images each; the first image is an ankle boot (9).
  for (int64_t c = 0; c < 10; ++c) EXPECT_EQ(train.targets().eq(c).sum().item<int64_t>(), 6000) << c;
  EXPECT_EQ(train.get(0).target.item<int64_t>(), 9);
  MNIST test(kFashionMnist, /*train=*/false);
  ASSERT_EQ(test.size(), 10000u);
  for (int64_t c = 0; c < 10; ++c) EXPECT_EQ(test.targets().eq(c).sum().item<int64_t>(), 1000) << c;
}

}  // namespace
}  // namespace tide
