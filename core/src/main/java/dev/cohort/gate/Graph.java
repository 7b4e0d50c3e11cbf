package dev.cohort.gate;

import dev.cohort.field.Field;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The gates of one run as a dataflow graph: it runs local gates and builds queued steps as soon as
 * they can run, and hands the engine the interactive gates that are ready, grouped by kind. Every
 * party builds the same graph in the same order, so the groups, and the order in which they write
 * and read their messages, agree across parties.
 */
public final class Graph {

  private final Suite suite;
  private LocalGate readyLocal; // a queue linked through LocalGate.nextReady
  private LocalGate readyLocalTail;
  private final ReadyGroups readyInteractive = new ReadyGroups();
  private final ArrayDeque<Buildable> toBuild = new ArrayDeque<>();
  private final GateCounts counts = new GateCounts();
  private long elementsInFlight; // of batches started and not yet finished
  private int current = -1; // see currentSession()
  private final Packed packed = new Packed(false);
  private final Packed packedWithMacs = new Packed(true);
  private final Gates gates;

  public Graph(Suite suite) {
    this.suite = suite;
    this.gates = new Gates(this);
  }

  public Suite suite() {
    return suite;
  }

  public GateCounts counts() {
    return counts;
  }

  /** How scopes record gates in this graph. */
  public Gates gates() {
    return gates;
  }

  /**
   * The session whose code the graph ran last (building a step, evaluating a local gate, reading a
   * result), or -1 when that was no one session's: lets a sessions run name the session that
   * failed.
   */
  public int currentSession() {
    return current;
  }

  /** Names the session whose code runs next (its builder's), or -1 for none. */
  public void setCurrentSession(int session) {
    current = session;
  }

  void ready(NativeGate gate) {
    if (gate instanceof LocalGate local) {
      if (readyLocalTail == null) {
        readyLocal = local;
      } else {
        readyLocalTail.nextReady = local;
      }
      readyLocalTail = local;
    } else {
      readyInteractive.add((InteractiveGate) gate);
    }
  }

  /** Queues {@code producer} to be built when the graph next drains. */
  public void schedule(Buildable producer) {
    toBuild.add(producer);
  }

  /** Runs every local gate and builds every step that can run now, until none is left. */
  public void drain() {
    while (true) {
      LocalGate local = readyLocal;
      if (local != null) {
        readyLocal = local.nextReady;
        local.nextReady = null;
        if (readyLocal == null) {
          readyLocalTail = null;
        }
        current = local.scope.session();
        counts.local();
        local.evaluate(suite, this);
        continue;
      }
      Buildable next = toBuild.poll();
      if (next == null) {
        current = -1; // no session's code is running any more
        return;
      }
      current = next.session();
      next.build(this);
    }
  }

  /**
   * Room for the {@code n} (at most {@link #SMALL}) elements of a small local result in shared
   * arrays, with MAC shares or without: elements [{@link Packed#at}, at + n) of {@link
   * Packed#chunk}, valid until the next call. An addition of two secrets then allocates nothing of
   * its own; the arrays live as long as any value in them.
   */
  Packed packed(int n, boolean macs) {
    return (macs ? packedWithMacs : packed).take(n, suite.field());
  }

  /** The largest local result that {@link #packed} holds. */
  static final int SMALL = 16;

  /** Shared arrays for small local results, handed out in chunks of {@value #CHUNK} elements. */
  static final class Packed {
    private static final int CHUNK = 1024; // elements
    private final boolean macs;
    private int used = CHUNK;
    Shares chunk; // the arrays the last room lies in
    int at; // where the last room starts

    Packed(boolean macs) {
      this.macs = macs;
    }

    Packed take(int n, Field field) {
      if (chunk == null || used + n > CHUNK) { // the first room, even of no elements, has arrays
        chunk = new Shares(CHUNK, field.alloc(CHUNK), macs ? field.alloc(CHUNK) : null);
        used = 0;
      }
      at = used;
      used += n;
      return this;
    }
  }

  /** Called by a batch when it finishes. */
  void batchFinished(int elements) {
    current = -1; // a batch may hold the gates of many sessions
    elementsInFlight -= elements;
  }

  public boolean hasReadyInteractive() {
    return !readyInteractive.isEmpty();
  }

  /**
   * Starts suite protocols for the ready interactive gates, up to {@code budget} elements (at least
   * one gate when nothing is in flight), grouped by kind in the order the gates became ready.
   * Protocols that finish without communication are completed at once, and whatever they make ready
   * is started too. Returns the batches that need rounds.
   */
  public List<GateBatch> start(int budget) {
    List<GateBatch> started = new ArrayList<>();
    while (true) {
      drain();
      if (readyInteractive.isEmpty() || budget <= 0) {
        return started;
      }
      int groups = readyInteractive.take(budget, elementsInFlight == 0);
      if (groups == 0) {
        return started; // the next gate waits for the batches in flight to finish
      }
      for (int g = 0; g < groups; g++) {
        InteractiveGate head = readyInteractive.head(g);
        int size = readyInteractive.size(g);
        int total = readyInteractive.elements(g);
        counts.interactive(head.kind, size, total);
        elementsInFlight += total;
        RoundProtocol protocol = head.startGroup(suite, size, total);
        GateBatch batch = new GateBatch(this, head, size, protocol, total);
        if (protocol.isDone()) {
          batch.finish(); // frees its budget at once; what it makes ready joins the next pass
        } else {
          budget -= total;
          started.add(batch);
        }
      }
    }
  }
}
