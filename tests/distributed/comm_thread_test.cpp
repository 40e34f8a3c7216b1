// CommThread: jobs in post order on one thread, and Note [Running a job on the caller]: a
// caller may take the idle thread's place, and jobs posted meanwhile wait for it. No MPI.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "distributed/comm_thread.h"

namespace tide {
namespace {

using distributed::detail::CommThread;

/// Runs a job on `thread` and waits until it ran (the thread has started and drained).
void drain(CommThread& thread) {
  std::promise<void> ran;
  thread.post([&ran] { ran.set_value(); });
  ran.get_future().wait();
}

/// borrow_if_idle() on a thread whose queue is empty: the only reason to refuse is the last
/// job's few instructions after it signalled, so retry briefly.
CommThread::Borrow borrow_soon(CommThread& thread) {
  for (int i = 0; i < 100000; ++i) {
    if (CommThread::Borrow b = thread.borrow_if_idle()) return b;
    std::this_thread::yield();
  }
  return CommThread::Borrow();
}

TEST(CommThread, RunsJobsInPostOrder) {
  std::vector<int> order;
  {
    CommThread thread;
    for (int i = 0; i < 100; ++i) thread.post([&order, i] { order.push_back(i); });
  }  // the destructor runs what was queued
  ASSERT_EQ(order.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(order[i], i);
}

TEST(CommThread, AnIdleThreadLendsItsPlaceAndJobsPostedMeanwhileWaitForIt) {
  CommThread thread;
  drain(thread);
  std::atomic<bool> borrowed_job_done{false};
  std::atomic<bool> posted_ran_early{false};
  std::promise<void> posted_ran;
  {
    CommThread::Borrow here = borrow_soon(thread);
    ASSERT_TRUE(here) << "an idle thread with nothing queued lends its place";
    EXPECT_FALSE(thread.borrow_if_idle()) << "one borrower at a time";
    thread.post([&] {
      posted_ran_early = !borrowed_job_done;
      posted_ran.set_value();
    });
    // Give the thread every chance to run the posted job out of turn.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    borrowed_job_done = true;
  }  // given back: the posted job runs now
  posted_ran.get_future().wait();
  EXPECT_FALSE(posted_ran_early) << "a job posted while the place was lent ran before it came back";
}

TEST(CommThread, ABusyOrQueuedThreadLendsNothing) {
  CommThread thread;
  std::promise<void> started, go_on;
  std::shared_future<void> go = go_on.get_future().share();
  thread.post([&started, go] {
    started.set_value();
    go.wait();
  });
  started.get_future().wait();
  EXPECT_FALSE(thread.borrow_if_idle()) << "a job is running";
  std::promise<void> second_ran;
  thread.post([&second_ran] { second_ran.set_value(); });
  EXPECT_FALSE(thread.borrow_if_idle()) << "a job is running and one is queued";
  go_on.set_value();
  second_ran.get_future().wait();
  EXPECT_TRUE(borrow_soon(thread)) << "idle again once the queue drained";
}

TEST(CommThread, TheDestructorWaitsForABorrowerBeforeItsLastJob) {
  std::atomic<bool> borrower_done{false};
  std::atomic<bool> last_saw_borrower_done{false};
  std::promise<void> borrowed;
  std::thread borrower;
  {
    CommThread thread;
    thread.set_last([&] { last_saw_borrower_done = borrower_done.load(); });
    drain(thread);
    borrower = std::thread([&] {
      CommThread::Borrow here = borrow_soon(thread);
      borrowed.set_value();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      borrower_done = true;
    });
    borrowed.get_future().wait();
  }  // destroyed while lent: the last job (MPI_Finalize) must wait for the borrower
  borrower.join();
  EXPECT_TRUE(last_saw_borrower_done);
}

}  // namespace
}  // namespace tide
