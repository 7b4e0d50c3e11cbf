package dev.cohort.gate;

import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;

/**
 * A gate that needs communication. Ready gates of the same kind (and parameter, e.g. the input's
 * owner) are evaluated together: their operands are concatenated into one batch, the suite runs one
 * {@link RoundProtocol} over it, and the results are split back. A scalar is a batch of one.
 */
abstract class InteractiveGate extends NativeGate {

  /** The kinds of interactive gates, in the order reports list them. */
  enum Kind {
    INPUT,
    MULTIPLY,
    OPEN,
    RANDOM,
    RANDOM_BIT,
    RANDOM_MASK
  }

  final Kind kind;
  final int param;

  /** The next gate of the same group, first among ready gates and then in the started batch. */
  InteractiveGate next;

  /** This gate's place in the order in which the graph's gates became ready. */
  int order;

  InteractiveGate(Scope scope, Kind kind, int param, int length) {
    super(scope, length);
    this.kind = kind;
    this.param = param;
  }

  /**
   * Equal for two gates exactly when they may share a batch: same kind, same parameter (and, for
   * inputs, the same declared bits).
   */
  long groupKey() {
    return ((long) kind.ordinal() << 32) | (param & 0xFFFF_FFFFL);
  }

  /**
   * Starts the suite protocol for the group that begins with this gate: {@code size} gates linked
   * through {@link #next}, {@code total} elements in all.
   */
  abstract RoundProtocol startGroup(Suite suite, int size, int total);

  /** Hands the protocol's results to the {@code size} gates of the group that begins here. */
  abstract void finishGroup(RoundProtocol protocol, int size, Graph graph);

  /** Secret input {@code index} of this gate. */
  Value operand(int index) {
    throw new AssertionError(kind + " has no secret inputs");
  }

  @Override
  void awaitInputs() {} // most kinds have no secret input

  @Override
  void release() {} // most kinds have no secret input

  /**
   * Concatenates operand {@code index} of the {@code size} gates from this one into one packed
   * array (and one of MACs), with no object per gate; a group of one passes its shares as they are.
   */
  Shares gather(int size, int index, int total, int words) {
    if (size == 1) {
      return operand(index).shares();
    }
    boolean macs = operand(index).backing().mac != null;
    long[] s = new long[total * words];
    long[] m = macs ? new long[total * words] : null;
    int at = 0;
    for (InteractiveGate g = this; g != null; g = g.next) {
      Value v = g.operand(index);
      Shares part = v.backing(); // read in place: a view is not copied out first
      int from = v.offset * words;
      int n = v.length * words;
      System.arraycopy(part.share, from, s, at, n);
      if (macs) {
        System.arraycopy(part.mac, from, m, at, n);
      }
      at += n;
    }
    return new Shares(total, s, m);
  }

  /** A gate whose result is one secret value: the gate itself. */
  abstract static class ToShares extends InteractiveGate {

    ToShares(Scope scope, Kind kind, int param, int length) {
      super(scope, kind, param, length);
    }

    @Override
    void finishGroup(RoundProtocol protocol, int size, Graph graph) {
      Shares all = protocol.shares();
      int at = 0;
      InteractiveGate g = this;
      while (g != null) {
        ToShares gate = (ToShares) g;
        g = g.next;
        gate.next = null;
        gate.release();
        gate.setView(all, at, graph); // a view into the batch: no copy
        at += gate.length;
        gate.completed(graph);
      }
    }
  }

  static final class Input extends ToShares {
    private final int bits; // the declared signed bit length, which the suite may prove
    private long[] values; // packed field elements at the owner, null elsewhere

    Input(Scope scope, int owner, int bits, long[] values, int length) {
      super(scope, Kind.INPUT, owner, length);
      this.bits = bits;
      this.values = values;
    }

    /**
     * Inputs of one owner share a batch only with the same declared bits: the suite's input takes
     * one width.
     */
    @Override
    long groupKey() {
      return super.groupKey() ^ ((long) bits << 40);
    }

    @Override
    void release() {
      values = null;
    }

    @Override
    RoundProtocol startGroup(Suite suite, int size, int total) {
      long[] all = null;
      if (suite.myId() == param) {
        if (size == 1) {
          all = values;
        } else {
          int words = suite.field().words();
          all = new long[total * words];
          int at = 0;
          for (InteractiveGate g = this; g != null; g = g.next) {
            long[] v = ((Input) g).values;
            System.arraycopy(v, 0, all, at, v.length);
            at += v.length;
          }
        }
      }
      return suite.input(param, all, total, bits);
    }
  }

  static final class Multiply extends ToShares {
    private Value a;
    private Value b;

    Multiply(Scope scope, Value a, Value b) {
      super(scope, Kind.MULTIPLY, 0, a.length);
      this.a = a;
      this.b = b;
    }

    @Override
    void awaitInputs() {
      await(a);
      await(b);
    }

    @Override
    void release() {
      a = null;
      b = null;
    }

    @Override
    Value operand(int index) {
      return index == 0 ? a : b;
    }

    @Override
    RoundProtocol startGroup(Suite suite, int size, int total) {
      int words = suite.field().words();
      return suite.multiply(gather(size, 0, total, words), gather(size, 1, total, words));
    }
  }

  static final class Random extends ToShares {
    Random(Scope scope, boolean bits, int length) {
      super(scope, bits ? Kind.RANDOM_BIT : Kind.RANDOM, 0, length);
    }

    @Override
    RoundProtocol startGroup(Suite suite, int size, int total) {
      return kind == Kind.RANDOM_BIT ? suite.randomBits(total) : suite.random(total);
    }
  }

  /** Random integers for statistical masking ({@link Suite#randomMasks}); param: their bits. */
  static final class RandomMask extends ToShares {
    RandomMask(Scope scope, int bits, int length) {
      super(scope, Kind.RANDOM_MASK, bits, length);
    }

    @Override
    RoundProtocol startGroup(Suite suite, int size, int total) {
      return suite.randomMasks(total, param);
    }
  }
}
