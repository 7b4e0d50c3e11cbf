package dev.cohort.producer;

import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;
import java.util.ArrayList;
import java.util.List;

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
  final int length;

  InteractiveGate(ParallelProtocolProducer scope, Kind kind, int param, int length, Value... in) {
    super(scope, in);
    this.kind = kind;
    this.param = param;
    this.length = length;
  }

  @Override
  final boolean isLocal() {
    return false;
  }

  boolean sameKind(InteractiveGate other) {
    return kind == other.kind && param == other.param;
  }

  /** Equal for two gates exactly when {@link #sameKind} holds. */
  long groupKey() {
    return ((long) kind.ordinal() << 32) | (param & 0xFFFF_FFFFL);
  }

  /** Starts the suite protocol for a group of gates of this gate's kind. */
  abstract RoundProtocol startGroup(Suite suite, List<InteractiveGate> group, int total);

  /** Hands the protocol's results to the gates of the group. */
  abstract void finishGroup(RoundProtocol protocol, List<InteractiveGate> group, Graph graph);

  /** Concatenates input {@code index} of every gate in the group. */
  static Shares gather(List<InteractiveGate> group, int index, int words) {
    if (group.size() == 1) {
      return group.get(0).inputs[index].shares();
    }
    List<Shares> parts = new ArrayList<>(group.size());
    for (InteractiveGate g : group) {
      parts.add(g.inputs[index].shares());
    }
    return Shares.concat(parts, words);
  }

  /** A gate whose result is one secret value. */
  abstract static class ToShares extends InteractiveGate {
    final Value output;

    ToShares(ParallelProtocolProducer scope, Kind kind, int param, Value output, Value... inputs) {
      super(scope, kind, param, output.length, inputs);
      this.output = output;
    }

    @Override
    void finishGroup(RoundProtocol protocol, List<InteractiveGate> group, Graph graph) {
      Shares all = protocol.shares();
      int words = graph.suite().field().words();
      int at = 0;
      for (InteractiveGate g : group) {
        ToShares gate = (ToShares) g;
        Shares part = group.size() == 1 ? all : all.slice(at, gate.length, words);
        at += gate.length;
        gate.output.set(part, graph);
        gate.completed(graph);
      }
    }
  }

  static final class Input extends ToShares {
    private final long[] values; // packed field elements at the owner, null elsewhere

    Input(ParallelProtocolProducer scope, int owner, long[] values, Value output) {
      super(scope, Kind.INPUT, owner, output);
      this.values = values;
    }

    @Override
    RoundProtocol startGroup(Suite suite, List<InteractiveGate> group, int total) {
      long[] all = null;
      if (suite.party() == param) {
        if (group.size() == 1) {
          all = values;
        } else {
          int words = suite.field().words();
          all = new long[total * words];
          int at = 0;
          for (InteractiveGate g : group) {
            long[] v = ((Input) g).values;
            System.arraycopy(v, 0, all, at, v.length);
            at += v.length;
          }
        }
      }
      return suite.input(param, all, total);
    }
  }

  static final class Multiply extends ToShares {
    Multiply(ParallelProtocolProducer scope, Value a, Value b, Value output) {
      super(scope, Kind.MULTIPLY, 0, output, a, b);
    }

    @Override
    RoundProtocol startGroup(Suite suite, List<InteractiveGate> group, int total) {
      int words = suite.field().words();
      return suite.multiply(gather(group, 0, words), gather(group, 1, words));
    }
  }

  static final class Random extends ToShares {
    Random(ParallelProtocolProducer scope, boolean bits, Value output) {
      super(scope, bits ? Kind.RANDOM_BIT : Kind.RANDOM, 0, output);
    }

    @Override
    RoundProtocol startGroup(Suite suite, List<InteractiveGate> group, int total) {
      return kind == Kind.RANDOM_BIT ? suite.randomBits(total) : suite.random(total);
    }
  }

  /** Random integers for statistical masking ({@link Suite#randomMasks}); param: their bits. */
  static final class RandomMask extends ToShares {
    RandomMask(ParallelProtocolProducer scope, int bits, Value output) {
      super(scope, Kind.RANDOM_MASK, bits, output);
    }

    @Override
    RoundProtocol startGroup(Suite suite, List<InteractiveGate> group, int total) {
      return suite.randomMasks(total, param);
    }
  }

  static final class Open extends InteractiveGate {
    private final Opened<?> output;

    Open(ParallelProtocolProducer scope, Value input, int receiver, Opened<?> output) {
      super(scope, Kind.OPEN, receiver, input.length, input);
      this.output = output;
    }

    @Override
    RoundProtocol startGroup(Suite suite, List<InteractiveGate> group, int total) {
      return suite.open(gather(group, 0, suite.field().words()), param);
    }

    @Override
    void finishGroup(RoundProtocol protocol, List<InteractiveGate> group, Graph graph) {
      long[] all = protocol.opened();
      int words = graph.suite().field().words();
      int at = 0;
      for (InteractiveGate g : group) {
        Open gate = (Open) g;
        long[] part = null;
        if (all != null) {
          part = all;
          if (group.size() > 1) {
            part = new long[gate.length * words];
            System.arraycopy(all, at, part, 0, part.length);
          }
        }
        at += gate.length * words;
        gate.output.set(part);
        gate.completed(graph);
      }
    }
  }
}
