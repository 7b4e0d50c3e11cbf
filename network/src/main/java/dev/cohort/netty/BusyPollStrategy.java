package dev.cohort.netty;

import dev.cohort.net.PollWindow;
import io.netty.channel.SelectStrategy;
import io.netty.channel.SelectStrategyFactory;
import io.netty.util.IntSupplier;

/**
 * The select strategy of a party's event loop: once the loop has run out of work it keeps polling
 * its sockets ({@code selectNow}) and its task queue for up to the busy-poll time before it blocks
 * in {@code select}, less when its recent waits were longer than that ({@link PollWindow}).
 * Invariant: it never delays a scheduled task (heartbeats, timeouts) by more than the busy-poll
 * time.
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

  private final PollWindow window;
  private long idleSince; // System.nanoTime() of the first look that found nothing; 0 when busy
  private boolean sleeping; // the last answer was SELECT

  private BusyPollStrategy(long pollNanos) {
    this.window = new PollWindow(pollNanos);
  }

  /** A strategy per event loop, polling for {@code pollNanos} (0: block at once, as Netty does). */
  static SelectStrategyFactory factory(long pollNanos) {
    return () -> new BusyPollStrategy(pollNanos);
  }

  /** How long the loop will poll in its next wait (tests). */
  long windowNanos() {
    return window.nanos();
  }

  @Override
  public int calculateStrategy(IntSupplier selectNow, boolean hasTasks) throws Exception {
    if (sleeping) {
      sleeping = false; // select returned and the loop handled what woke it
      busyAgain();
    }
    if (hasTasks) {
      busyAgain();
      return selectNow.get(); // as Netty's default: look at the sockets, then run the tasks
    }
    long now = System.nanoTime();
    if (idleSince == 0) {
      idleSince = now; // a wait starts; it lasts until the loop has work again
    }
    if (now - idleSince >= window.nanos()) {
      sleeping = true;
      return SELECT; // sleeps until a socket, a task or the next scheduled task needs the loop
    }
    int ready = selectNow.get();
    if (ready > 0) {
      busyAgain();
      return ready;
    }
    Thread.yield();
    return CONTINUE; // the loop asks again, with a fresh look at its task queue
  }

  /**
   * The loop has work: the wait since {@link #idleSince} (polled, or slept in select and woken,
   * measured when the loop asks again after handling what woke it) sets the next window.
   */
  private void busyAgain() {
    if (idleSince != 0) {
      window.waited(System.nanoTime() - idleSince);
      idleSince = 0;
    }
  }
}
