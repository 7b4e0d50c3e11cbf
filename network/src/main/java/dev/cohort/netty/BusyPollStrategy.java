package dev.cohort.netty;

import io.netty.channel.SelectStrategy;
import io.netty.channel.SelectStrategyFactory;
import io.netty.util.IntSupplier;

/**
 * The select strategy of a party's event loop: once the loop has run out of work it keeps polling
 * its sockets ({@code selectNow}) and its task queue for up to the busy-poll time before it blocks
 * in {@code select}. Invariant: the loop blocks only after a whole busy-poll time without work, and
 * never delays a scheduled task (heartbeats, timeouts) by more than that.
 *
 * <p>Why: in a chain of dependent rounds the loop has work again within tens of microseconds (the
 * party thread's frames for the next round, then the peers' frames). Blocking in between costs two
 * wake-ups per round, one through the selector's wake-up pipe for the party thread's task and one
 * for the peers' bytes, each a context switch on the round's critical path. While the loop polls,
 * {@link io.netty.channel.EventLoop#execute} sees it awake and makes no wake-up system call at all.
 *
 * <p>Each look that finds nothing yields the processor ({@link Thread#yield}) rather than spinning:
 * on a machine with fewer cores than busy threads (three parties in one JVM on two cores) a pure
 * spin holds the core that the thread it waits for needs, and rounds got three to six times slower
 * than without polling; yielding let them run at half the time.
 */
final class BusyPollStrategy implements SelectStrategy {

  private final long pollNanos;
  private long idleSince; // System.nanoTime() of the first look that found nothing; 0 when busy

  private BusyPollStrategy(long pollNanos) {
    this.pollNanos = pollNanos;
  }

  /** A strategy per event loop, polling for {@code pollNanos} (0: block at once, as Netty does). */
  static SelectStrategyFactory factory(long pollNanos) {
    return () -> new BusyPollStrategy(pollNanos);
  }

  @Override
  public int calculateStrategy(IntSupplier selectNow, boolean hasTasks) throws Exception {
    if (hasTasks) {
      idleSince = 0;
      return selectNow.get(); // as Netty's default: look at the sockets, then run the tasks
    }
    if (pollNanos == 0) {
      return SELECT;
    }
    int ready = selectNow.get();
    if (ready > 0) {
      idleSince = 0;
      return ready;
    }
    long now = System.nanoTime();
    if (idleSince == 0) {
      idleSince = now;
    } else if (now - idleSince >= pollNanos) {
      idleSince = 0;
      return SELECT; // sleeps until a socket, a task or the next scheduled task needs the loop
    }
    Thread.yield();
    return CONTINUE; // the loop asks again, with a fresh look at its task queue
  }
}
