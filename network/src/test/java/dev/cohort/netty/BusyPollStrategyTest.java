package dev.cohort.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.SelectStrategy;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The event loop's select strategy polls while there is no work for the busy-poll time and then
 * blocks; work found while it polls (ready sockets, queued tasks) is taken at once.
 */
class BusyPollStrategyTest {

  private final AtomicInteger selectNows = new AtomicInteger();
  private volatile int readyKeys;

  private int selectNow() {
    selectNows.incrementAndGet();
    return readyKeys;
  }

  @Test
  void noWork_pollsForThePollTimeThenBlocks() throws Exception {
    long pollNanos = TimeUnit.MILLISECONDS.toNanos(20);
    SelectStrategy strategy = BusyPollStrategy.factory(pollNanos).newSelectStrategy();
    long start = System.nanoTime();
    int continues = 0;
    int decision;
    while ((decision = strategy.calculateStrategy(this::selectNow, false))
        == SelectStrategy.CONTINUE) {
      continues++;
    }
    long took = System.nanoTime() - start;
    assertEquals(SelectStrategy.SELECT, decision);
    assertTrue(took >= pollNanos, "blocked after " + took + " ns, before the 20 ms poll time");
    assertTrue(continues > 0, "polled at least once before blocking");
    assertEquals(continues, selectNows.get(), "every look asks the sockets");
  }

  @Test
  void zeroWindow_sleepsAtOnceWithoutLooking() throws Exception {
    BusyPollStrategy strategy =
        (BusyPollStrategy) BusyPollStrategy.factory(2_000).newSelectStrategy();
    for (int i = 0; i < 2; i++) { // two long waits: 2 µs, 1 µs, then under 1 µs is none
      while (strategy.calculateStrategy(this::selectNow, false) == SelectStrategy.CONTINUE) {
        // polls out the window, then sleeps
      }
      TimeUnit.MILLISECONDS.sleep(1);
    }
    assertEquals(0, strategy.calculateStrategy(this::selectNow, true));
    assertEquals(0, strategy.windowNanos());
    int looks = selectNows.get();
    assertEquals(SelectStrategy.SELECT, strategy.calculateStrategy(this::selectNow, false));
    assertEquals(looks, selectNows.get(), "no look at the sockets before sleeping");
  }

  @Test
  void readySockets_whilePolling_areTakenAtOnce() throws Exception {
    SelectStrategy strategy =
        BusyPollStrategy.factory(TimeUnit.HOURS.toNanos(1)).newSelectStrategy();
    assertEquals(SelectStrategy.CONTINUE, strategy.calculateStrategy(this::selectNow, false));
    assertEquals(SelectStrategy.CONTINUE, strategy.calculateStrategy(this::selectNow, false));
    readyKeys = 2;
    assertEquals(2, strategy.calculateStrategy(this::selectNow, false));
  }

  @Test
  void queuedTasks_lookAtTheSocketsAndRunWithoutBlocking() throws Exception {
    SelectStrategy strategy =
        BusyPollStrategy.factory(TimeUnit.HOURS.toNanos(1)).newSelectStrategy();
    assertEquals(0, strategy.calculateStrategy(this::selectNow, true));
    assertEquals(1, selectNows.get());
  }

  @Test
  void longSleep_narrowsTheWindow_shortWaitOpensItAgain() throws Exception {
    long pollNanos = TimeUnit.MILLISECONDS.toNanos(20);
    BusyPollStrategy strategy =
        (BusyPollStrategy) BusyPollStrategy.factory(pollNanos).newSelectStrategy();
    while (strategy.calculateStrategy(this::selectNow, false) == SelectStrategy.CONTINUE) {
      // polls out the window, then sleeps
    }
    TimeUnit.MILLISECONDS.sleep(25); // the sleep in select: 45 ms in all, longer than the window
    assertEquals(0, strategy.calculateStrategy(this::selectNow, true));
    assertEquals(pollNanos / 2, strategy.windowNanos(), "a wait polling would not have caught");
    assertEquals(SelectStrategy.CONTINUE, strategy.calculateStrategy(this::selectNow, false));
    readyKeys = 1;
    assertEquals(1, strategy.calculateStrategy(this::selectNow, false));
    assertEquals(pollNanos, strategy.windowNanos(), "work came while polling");
  }

  @Test
  void zeroPollTime_blocksAtOnceWithoutLooking() throws Exception {
    SelectStrategy strategy = BusyPollStrategy.factory(0).newSelectStrategy();
    assertEquals(SelectStrategy.SELECT, strategy.calculateStrategy(this::selectNow, false));
    assertEquals(0, selectNows.get());
  }
}
