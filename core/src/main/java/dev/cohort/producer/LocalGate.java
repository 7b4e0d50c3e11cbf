package dev.cohort.producer;

import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;
import java.util.ArrayList;
import java.util.List;

/**
 * A linear operation on shares: no communication, no round. It runs as soon as its inputs are ready
 * and never ends a batch.
 */
final class LocalGate extends NativeGate {

  enum Op {
    ADD,
    SUB,
    NEGATE,
    ADD_CONSTANT,
    SCALE,
    ADD_CONSTANTS,
    SCALE_EACH,
    SUM,
    SLICE,
    CONCAT,
    BROADCAST
  }

  private final Op op;
  private final Value output;
  private final long[] constant; // packed public operand(s) of the constant ops
  private final int from; // SLICE start

  LocalGate(
      ParallelProtocolProducer scope,
      Op op,
      Value output,
      long[] constant,
      int from,
      Value... inputs) {
    super(scope, inputs);
    this.op = op;
    this.output = output;
    this.constant = constant;
    this.from = from;
  }

  @Override
  boolean isLocal() {
    return true;
  }

  void evaluate(Suite suite, Graph graph) {
    Shares result = compute(suite, op, inputs, constant, from, output.length);
    output.set(result, graph);
    completed(graph);
  }

  /** Evaluates {@code op} on ready inputs; also used to skip the gate when inputs are ready. */
  static Shares compute(
      Suite suite, Op op, Value[] inputs, long[] constant, int from, int outputLength) {
    int words = suite.field().words();
    switch (op) {
      case ADD:
        return suite.add(inputs[0].shares(), inputs[1].shares());
      case SUB:
        return suite.sub(inputs[0].shares(), inputs[1].shares());
      case NEGATE:
        return suite.negate(inputs[0].shares());
      case ADD_CONSTANT:
        return suite.addConstant(inputs[0].shares(), constant, 0);
      case SCALE:
        return suite.scale(inputs[0].shares(), constant, 0);
      case ADD_CONSTANTS:
        return suite.addConstants(inputs[0].shares(), constant);
      case SCALE_EACH:
        return suite.scaleEach(inputs[0].shares(), constant);
      case SUM:
        return suite.sum(inputs[0].shares());
      case SLICE:
        return inputs[0].shares().slice(from, outputLength, words);
      case CONCAT:
        List<Shares> parts = new ArrayList<>(inputs.length);
        for (Value v : inputs) {
          parts.add(v.shares());
        }
        return Shares.concat(parts, words);
      case BROADCAST:
        return broadcast(inputs[0].shares(), outputLength, words);
      default:
        throw new AssertionError(op);
    }
  }

  private static Shares broadcast(Shares one, int n, int words) {
    long[] s = new long[n * words];
    long[] m = one.mac == null ? null : new long[n * words];
    for (int i = 0; i < n; i++) {
      System.arraycopy(one.share, 0, s, i * words, words);
      if (m != null) {
        System.arraycopy(one.mac, 0, m, i * words, words);
      }
    }
    return new Shares(n, s, m);
  }
}
