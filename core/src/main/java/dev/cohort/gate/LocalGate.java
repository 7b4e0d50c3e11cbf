package dev.cohort.gate;

import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;
import java.util.ArrayList;
import java.util.List;

/**
 * A linear operation on shares: no communication, no round. It runs as soon as its inputs are ready
 * and never ends a batch. The gate is its own output value.
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

  // The operands are dropped once the gate has run (release()): the application may hold the gate.
  private final Op op;
  private Value a; // the operand of every op but CONCAT and LINEAR
  private Value b; // the second one of ADD and SUB; null otherwise
  private Value[] parts; // the operands of CONCAT and LINEAR; null otherwise
  private long[] constant; // packed public operand(s) of the constant ops
  private final int from; // SLICE start; SUM_ROWS row length
  private LinearForm linear; // LINEAR's form, else null

  /** The next gate in the graph's queue of ready local gates. */
  LocalGate nextReady;

  /**
   * A gate of any op but CONCAT and LINEAR, with {@code length} outputs, on {@code a} (and {@code
   * b} for ADD and SUB).
   */
  LocalGate(Scope scope, Op op, int length, long[] constant, int from, Value a, Value b) {
    super(scope, length);
    this.op = op;
    this.a = a;
    this.b = b;
    this.parts = null;
    this.constant = constant;
    this.from = from;
    this.linear = null;
  }

  /** A CONCAT gate ({@code linear} null) or a LINEAR one, with {@code length} outputs. */
  LocalGate(Scope scope, int length, LinearForm linear, Value[] parts) {
    super(scope, length);
    this.op = linear == null ? Op.CONCAT : Op.LINEAR;
    this.a = null;
    this.b = null;
    this.parts = parts;
    this.constant = null;
    this.from = 0;
    this.linear = linear;
  }

  @Override
  void awaitInputs() {
    if (parts != null) {
      for (Value v : parts) {
        await(v);
      }
    } else {
      await(a);
      if (b != null) {
        await(b);
      }
    }
  }

  void evaluate(Suite suite, Graph graph) {
    if ((op == Op.ADD || op == Op.SUB) && length <= Graph.SMALL) {
      evaluateSmall(suite, graph);
      return;
    }
    Shares result =
        parts != null
            ? computeParts(suite, linear, parts, length)
            : compute(suite, op, a, b, constant, from, length);
    release();
    set(result, graph);
    completed(graph);
  }

  /** ADD or SUB of a few elements: the result goes into the graph's shared arrays. */
  private void evaluateSmall(Suite suite, Graph graph) {
    Shares x = a.backing();
    Shares y = b.backing();
    boolean macs = x.mac != null;
    Graph.Packed room = graph.packed(length, macs);
    Shares out = room.chunk;
    int at = room.at;
    if (op == Op.ADD) {
      suite.addInto(x, a.offset, y, b.offset, out, at, length);
    } else {
      suite.subInto(x, a.offset, y, b.offset, out, at, length);
    }
    release();
    setView(out, at, graph);
    completed(graph);
  }

  @Override
  void release() {
    a = null;
    b = null;
    parts = null;
    constant = null;
    linear = null;
  }

  /**
   * Evaluates {@code op} (not CONCAT or LINEAR) on ready inputs; also used to skip the gate when
   * inputs are ready.
   */
  static Shares compute(
      Suite suite, Op op, Value a, Value b, long[] constant, int from, int outputLength) {
    switch (op) {
      case ADD: // views are read in place
        return suite.add(a.backing(), a.offset, b.backing(), b.offset, outputLength);
      case SUB:
        return suite.sub(a.backing(), a.offset, b.backing(), b.offset, outputLength);
      case NEGATE:
        return suite.negate(a.shares());
      case ADD_CONSTANT:
        return suite.addConstant(a.shares(), constant, 0);
      case SCALE:
        return suite.scale(a.shares(), constant, 0);
      case ADD_CONSTANTS:
        return suite.addConstants(a.shares(), constant);
      case SCALE_EACH:
        return suite.scaleEach(a.shares(), constant);
      case SUM:
        return suite.sum(a.shares());
      case SLICE:
        return a.backing().slice(a.offset + from, outputLength, suite.field().words());
      case BROADCAST:
        return broadcast(a.shares(), outputLength, suite.field().words());
      case SUM_ROWS:
        return suite.sumRows(a.shares(), from, constant);
      default:
        throw new AssertionError(op);
    }
  }

  /**
   * CONCAT ({@code linear} null) or LINEAR on ready {@code parts}; also used to skip the gate when
   * they are ready.
   */
  static Shares computeParts(Suite suite, LinearForm linear, Value[] parts, int outputLength) {
    if (linear != null) {
      return linear(suite, parts, linear, outputLength);
    }
    List<Shares> shares = new ArrayList<>(parts.length);
    for (Value v : parts) {
      shares.add(v.shares());
    }
    return Shares.concat(shares, suite.field().words());
  }

  private static Shares linear(Suite suite, Value[] inputs, LinearForm form, int n) {
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
