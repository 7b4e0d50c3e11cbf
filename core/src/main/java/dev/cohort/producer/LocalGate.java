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
    BROADCAST,
    SUM_ROWS,
    LINEAR
  }

  /**
   * The form of a {@link Op#LINEAR} gate: term t reads input {@code input[t]} from element {@code
   * offsets[t]} on, with {@code coefficients[t]} (null: all ones); {@code constants} (packed public
   * elements, or null) are added.
   */
  record Linear(int[] input, int[] offsets, long[][] coefficients, long[] constants) {}

  private final Op op;
  private final Value output;
  private final long[] constant; // packed public operand(s) of the constant ops
  private final int from; // SLICE start; SUM_ROWS row length
  private final Linear linear; // LINEAR's form, else null

  /** The next gate in the graph's queue of ready local gates. */
  LocalGate nextReady;

  LocalGate(
      ParallelProtocolProducer scope,
      Op op,
      Value output,
      long[] constant,
      int from,
      Linear linear,
      Value... inputs) {
    super(scope, inputs);
    this.op = op;
    this.output = output;
    this.constant = constant;
    this.from = from;
    this.linear = linear;
  }

  void evaluate(Suite suite, Graph graph) {
    Shares result = compute(suite, op, inputs, constant, from, linear, output.length);
    output.set(result, graph);
    completed(graph);
  }

  /** Evaluates {@code op} on ready inputs; also used to skip the gate when inputs are ready. */
  static Shares compute(
      Suite suite,
      Op op,
      Value[] inputs,
      long[] constant,
      int from,
      Linear linear,
      int outputLength) {
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
      case SUM_ROWS:
        return suite.sumRows(inputs[0].shares(), from, constant);
      case LINEAR:
        return linear(suite, inputs, linear, outputLength);
      default:
        throw new AssertionError(op);
    }
  }

  private static Shares linear(Suite suite, Value[] inputs, Linear form, int n) {
    Shares[] terms = new Shares[form.input().length];
    for (int t = 0; t < terms.length; t++) {
      terms[t] = inputs[form.input()[t]].shares();
    }
    Shares sum = suite.linear(terms, form.offsets(), form.coefficients(), n);
    return form.constants() == null ? sum : suite.addConstants(sum, form.constants());
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
