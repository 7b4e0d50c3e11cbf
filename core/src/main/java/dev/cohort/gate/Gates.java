package dev.cohort.gate;

import dev.cohort.api.Deferred;
import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;
import java.math.BigInteger;

/**
 * How scopes add gates to a {@link Graph}: one method per kind of gate, each recording the gate in
 * the scope it is given. A local gate whose inputs already have shares (as in a step built from
 * earlier results) runs at once and never becomes a node of the graph.
 *
 * <p>Callers have checked their arguments (parties, bit lengths, vector lengths and indices) and
 * encoded public operands as packed field elements; the gates trust both. {@code length} is always
 * the number of secrets the gate outputs.
 */
public final class Gates {

  private final Graph graph;
  private final Suite suite;

  Gates(Graph graph) {
    this.graph = graph;
    this.suite = graph.suite();
  }

  // ---- values without a gate ----

  /** Secrets whose value is public: {@code length} packed field elements. */
  public Value constant(long[] packed, int length) {
    return computed(length, suite.constant(packed, length));
  }

  /**
   * Secrets whose shares were made outside the engine (a session's client inputs): checked against
   * the suite's representation (element count, MAC shares present exactly when the suite
   * authenticates values).
   */
  public Value imported(Shares shares) {
    boolean macs = suite.constant(new long[suite.field().words()], 1).mac != null;
    if (shares.mac != null != macs) {
      throw new IllegalArgumentException(
          "imported shares "
              + (macs ? "lack the MAC shares" : "carry MAC shares")
              + " that suite "
              + suite.getClass().getSimpleName()
              + (macs ? " needs" : " does not use"));
    }
    int words = shares.length * suite.field().words();
    if (shares.share.length < words || (shares.mac != null && shares.mac.length < words)) {
      throw new IllegalArgumentException(
          "imported shares hold fewer words than " + shares.length + " elements need");
    }
    return computed(shares.length, shares);
  }

  /** A vector of no secrets. */
  public Value empty() {
    return constant(new long[0], 0);
  }

  /**
   * A value of {@code length} secrets without shares yet: a step's result, set by {@link #fill}.
   */
  public Value placeholder(int length) {
    return length == 1 ? new SecretValue() : new VectorValue(length);
  }

  /**
   * Sets {@code placeholder} to the shares of {@code computed} and wakes the gates waiting on it.
   */
  public void fill(Value placeholder, Value computed) {
    placeholder.set(computed.shares(), graph);
  }

  /**
   * A value of {@code length} secrets that holds the shares of {@code computed} (a step's result).
   */
  public Value aliasOf(Value computed, int length) {
    Value out = placeholder(length);
    out.shares = computed.shares();
    return out;
  }

  private static Value computed(int length, Shares shares) {
    Value out = length == 1 ? new SecretValue() : new VectorValue(length);
    out.shares = shares;
    return out;
  }

  // ---- interactive gates ----

  /** {@code owner}'s input of {@code length} secrets in {@code bits}-bit signed range. */
  public Value input(Scope scope, int owner, int bits, long[] packed, int length) {
    return attach(new InteractiveGate.Input(scope, owner, bits, packed, length));
  }

  /** The element-wise product of {@code a} and {@code b}. */
  public Value multiply(Scope scope, Value a, Value b) {
    return attach(new InteractiveGate.Multiply(scope, a, b));
  }

  /** {@code length} random secrets, or random bits. */
  public Value random(Scope scope, boolean bits, int length) {
    return attach(new InteractiveGate.Random(scope, bits, length));
  }

  /** {@code length} random {@code bits}-bit integers for statistical masking. */
  public Value randomMasks(Scope scope, int bits, int length) {
    return attach(new InteractiveGate.RandomMask(scope, bits, length));
  }

  private Value attach(NativeGate gate) {
    gate.attach(graph);
    return gate;
  }

  // ---- opening ----

  /** Opens the secret {@code in} to {@code receiver} (to everyone when negative). */
  public Deferred<Long> openLong(Scope scope, Value in, int receiver) {
    return open(scope, in, Opened.Form.LONG, 0, receiver);
  }

  /** Opens the secret {@code in} to everyone, as a signed {@code BigInteger}. */
  public Deferred<BigInteger> openBig(Scope scope, Value in) {
    return open(scope, in, Opened.Form.BIG, 0, -1);
  }

  /** Opens the vector {@code in} to {@code receiver} (to everyone when negative). */
  public Deferred<long[]> openLongs(Scope scope, Value in, int receiver) {
    return open(scope, in, Opened.Form.LONGS, 0, receiver);
  }

  /** Opens the vector {@code in} to everyone, as signed {@code BigInteger}s. */
  public Deferred<BigInteger[]> openBigs(Scope scope, Value in) {
    return open(scope, in, Opened.Form.BIGS, 0, -1);
  }

  /** Opens the low {@code bits} bits of each element of {@code in} to everyone. */
  public Deferred<long[]> openLowBits(Scope scope, Value in, int bits) {
    return open(scope, in, Opened.Form.LOW_BITS, bits, -1);
  }

  private <T> Deferred<T> open(Scope scope, Value in, Opened.Form form, int bits, int receiver) {
    Opened<T> out = new Opened<>(scope, in, suite.field(), form, bits, receiver, suite.myId());
    if (in.length == 0) {
      out.release();
      out.set(receiver < 0 || receiver == suite.myId() ? new long[0] : null, 0);
      return out;
    }
    out.attach(graph);
    return out;
  }

  // ---- local gates ----

  /** {@code a + b}. */
  public Value add(Scope scope, int length, Value a, Value b) {
    return local(scope, LocalGate.Op.ADD, length, null, 0, a, b);
  }

  /** {@code a - b}. */
  public Value sub(Scope scope, int length, Value a, Value b) {
    return local(scope, LocalGate.Op.SUB, length, null, 0, a, b);
  }

  /** {@code -a}. */
  public Value negate(Scope scope, int length, Value a) {
    return local(scope, LocalGate.Op.NEGATE, length, null, 0, a, null);
  }

  /** {@code a} plus the packed public element {@code constant} in every element. */
  public Value addConstant(Scope scope, int length, Value a, long[] constant) {
    return local(scope, LocalGate.Op.ADD_CONSTANT, length, constant, 0, a, null);
  }

  /** {@code a} times the packed public element {@code constant}. */
  public Value scale(Scope scope, int length, Value a, long[] constant) {
    return local(scope, LocalGate.Op.SCALE, length, constant, 0, a, null);
  }

  /** {@code a} plus one packed public element per element. */
  public Value addConstants(Scope scope, int length, Value a, long[] constants) {
    return local(scope, LocalGate.Op.ADD_CONSTANTS, length, constants, 0, a, null);
  }

  /** {@code a} times one packed public element per element. */
  public Value scaleEach(Scope scope, int length, Value a, long[] constants) {
    return local(scope, LocalGate.Op.SCALE_EACH, length, constants, 0, a, null);
  }

  /** The sum of the elements of {@code a}: one secret. */
  public Value sum(Scope scope, Value a) {
    return local(scope, LocalGate.Op.SUM, 1, null, 0, a, null);
  }

  /** Elements {@code [from, from + length)} of {@code a}. */
  public Value slice(Scope scope, int length, Value a, int from) {
    return local(scope, LocalGate.Op.SLICE, length, null, from, a, null);
  }

  /** {@code length} copies of the secret {@code a}. */
  public Value broadcast(Scope scope, int length, Value a) {
    return local(scope, LocalGate.Op.BROADCAST, length, null, 0, a, null);
  }

  /** The sum of the rows of {@code n} elements of {@code rows}, row i times packed scalar i. */
  public Value sumRows(Scope scope, int n, Value rows, long[] scalars) {
    return local(scope, LocalGate.Op.SUM_ROWS, n, scalars, n, rows, null);
  }

  /** {@code parts} one after another. */
  public Value concat(Scope scope, int length, Value... parts) {
    return parts(scope, length, null, parts);
  }

  /** The linear form {@code form} over {@code inputs}. */
  public Value linear(Scope scope, int length, LinearForm form, Value... inputs) {
    return parts(scope, length, form, inputs);
  }

  /** A local gate on {@code a} (and {@code b} for ADD and SUB), or its value computed now. */
  private Value local(
      Scope scope, LocalGate.Op op, int length, long[] constant, int from, Value a, Value b) {
    if (a.isReady() && (b == null || b.isReady())) {
      graph.counts().local();
      return computed(length, LocalGate.compute(suite, op, a, b, constant, from, length));
    }
    LocalGate gate = new LocalGate(scope, op, length, constant, from, a, b);
    gate.attach(graph);
    return gate;
  }

  /** A CONCAT gate ({@code linear} null) or a LINEAR one on {@code parts}, or its value now. */
  private Value parts(Scope scope, int length, LinearForm linear, Value[] parts) {
    boolean ready = true;
    for (Value v : parts) {
      ready &= v.isReady();
    }
    if (ready) {
      graph.counts().local();
      return computed(length, LocalGate.computeParts(suite, linear, parts, length));
    }
    LocalGate gate = new LocalGate(scope, length, linear, parts);
    gate.attach(graph);
    return gate;
  }
}
