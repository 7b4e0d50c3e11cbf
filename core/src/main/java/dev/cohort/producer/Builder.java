package dev.cohort.producer;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.Numeric;
import dev.cohort.api.PartyId;
import dev.cohort.api.Secret;
import dev.cohort.api.SecretVector;
import dev.cohort.api.Step;
import dev.cohort.api.StepFunction;
import dev.cohort.field.Field;
import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The {@link Numeric} builder of one scope. Each call records a gate in the scope; a local gate
 * whose inputs already have shares (as in a step built from earlier results) runs at once, without
 * becoming a node of the graph.
 */
final class Builder implements Numeric {

  private final Graph graph;
  private final ParallelProtocolProducer scope;
  private final Suite suite;
  private final Field field;

  Builder(Graph graph, ParallelProtocolProducer scope) {
    this.graph = graph;
    this.scope = scope;
    this.suite = graph.suite();
    this.field = suite.field();
  }

  /** The value of a step's result, with a clear error when it was not computed inside it. */
  static <T> T valueOfStep(Deferred<T> result) {
    try {
      return result.get();
    } catch (IllegalStateException e) {
      throw new IllegalStateException(
          "a step returned a value that its own gates do not compute: " + e.getMessage(), e);
    }
  }

  @Override
  public int myId() {
    return suite.myId();
  }

  @Override
  public int parties() {
    return suite.parties();
  }

  @Override
  public int fieldBits() {
    return field.bitLength();
  }

  @Override
  public BigInteger modulus() {
    return field.modulus();
  }

  // ---- input ----

  @Override
  public Secret input(int party, long value, int bits) {
    long[] packed = null;
    if (isMine(party)) {
      checkInputBits(party, bits);
      packed = field.alloc(1);
      encodeChecked(party, value, bits, packed, 0);
    }
    return inputOf(party, 1, bits, 64, packed);
  }

  @Override
  public Secret input(int party, BigInteger value, int bits) {
    checkParty(party, "input");
    checkBits(bits, field.bitLength() - 1);
    long[] packed = null;
    if (isMine(party)) {
      if (value == null) {
        throw new IllegalArgumentException(PartyId.of(party) + "'s input value is null");
      }
      checkRange(party, 0, value, bits);
      packed = field.alloc(1);
      field.encode(value, packed, 0);
    }
    return inputOf(party, 1, bits, Integer.MAX_VALUE, packed);
  }

  @Override
  public SecretVector input(int party, long[] values, int length, int bits) {
    if (length < 0) {
      throw new IllegalArgumentException("input length (" + length + ") must be >= 0");
    }
    long[] packed = null;
    if (isMine(party)) {
      if (values == null || values.length != length) {
        throw new IllegalArgumentException(
            PartyId.of(party)
                + " must supply "
                + length
                + " input values, got "
                + (values == null ? "none" : values.length));
      }
      packed = encodeLongs(party, values, bits);
    }
    return inputOf(party, length, bits, 64, packed);
  }

  private Value inputOf(int party, int length, int bits, int maxBits, long[] packed) {
    checkParty(party, "input");
    checkBits(bits, Math.min(maxBits, field.bitLength() - 1));
    if (length == 0) {
      return empty();
    }
    return attach(new InteractiveGate.Input(scope, party, bits, packed, length));
  }

  private Value attach(NativeGate gate) {
    gate.attach(graph);
    return gate;
  }

  /** A vector of no secrets. */
  private Value empty() {
    return computed(0, suite.constant(new long[0], 0));
  }

  private boolean isMine(int party) {
    return party == suite.myId();
  }

  private long[] encodeLongs(int party, long[] values, int bits) {
    checkInputBits(party, bits);
    long[] packed = field.alloc(values.length);
    for (int i = 0; i < values.length; i++) {
      encodeChecked(party, values[i], bits, packed, i);
    }
    return packed;
  }

  private void checkInputBits(int party, int bits) {
    checkParty(party, "input");
    checkBits(bits, Math.min(64, field.bitLength() - 1));
  }

  /** Encodes input {@code v} at element {@code i} after checking its declared signed range. */
  private void encodeChecked(int party, long v, int bits, long[] packed, int i) {
    if (bits < 64 && (v < -(1L << (bits - 1)) || v >= 1L << (bits - 1))) {
      throw new IllegalArgumentException(rangeMessage(party, i, bits));
    }
    field.encode(v, packed, i);
  }

  private void checkRange(int party, int position, BigInteger v, int bits) {
    BigInteger bound = BigInteger.ONE.shiftLeft(bits - 1);
    if (v.compareTo(bound.negate()) < 0 || v.compareTo(bound) >= 0) {
      throw new IllegalArgumentException(rangeMessage(party, position, bits));
    }
  }

  private static String rangeMessage(int party, int position, int bits) {
    return PartyId.of(party)
        + "'s input at position "
        + position
        + " is outside the declared "
        + bits
        + "-bit signed range [-2^"
        + (bits - 1)
        + ", 2^"
        + (bits - 1)
        + ")";
  }

  private void checkParty(int party, String what) {
    if (party < 0 || party >= suite.parties()) {
      throw new IllegalArgumentException(
          what
              + " names party "
              + party
              + ", but the parties are P0.."
              + PartyId.of(suite.parties() - 1));
    }
  }

  private void checkBits(int bits, int max) {
    if (bits < 1 || bits > max) {
      throw new IllegalArgumentException(
          "bit length ("
              + bits
              + ") must be in [1, "
              + max
              + "] for the field "
              + field.name()
              + " ("
              + field.bitLength()
              + " bits)");
    }
  }

  // ---- constants ----

  @Override
  public Secret known(long value) {
    SecretValue out = new SecretValue();
    long[] packed = field.alloc(1);
    field.encode(value, packed, 0);
    out.shares = suite.constant(packed, 1);
    return out;
  }

  @Override
  public Secret known(BigInteger value) {
    SecretValue out = new SecretValue();
    long[] packed = field.alloc(1);
    field.encode(value, packed, 0);
    out.shares = suite.constant(packed, 1);
    return out;
  }

  @Override
  public SecretVector known(long[] values) {
    VectorValue out = new VectorValue(values.length);
    long[] packed = field.alloc(values.length);
    for (int i = 0; i < values.length; i++) {
      field.encode(values[i], packed, i);
    }
    out.shares = suite.constant(packed, values.length);
    return out;
  }

  @Override
  public SecretVector known(BigInteger[] values) {
    VectorValue out = new VectorValue(values.length);
    long[] packed = field.alloc(values.length);
    for (int i = 0; i < values.length; i++) {
      field.encode(values[i], packed, i);
    }
    out.shares = suite.constant(packed, values.length);
    return out;
  }

  // ---- local gates ----

  /**
   * A local gate with {@code length} outputs on {@code a} (and {@code b} for ADD and SUB), or its
   * value computed now if they are ready.
   */
  private Value local(LocalGate.Op op, int length, long[] constant, int from, Value a, Value b) {
    if (a.isReady() && (b == null || b.isReady())) {
      graph.counts().local();
      return computed(length, LocalGate.compute(suite, op, a, b, constant, from, length));
    }
    LocalGate gate = new LocalGate(scope, op, length, constant, from, a, b);
    gate.attach(graph);
    return gate;
  }

  private Value local(LocalGate.Op op, int length, long[] constant, int from, Value a) {
    return local(op, length, constant, from, a, null);
  }

  /** A CONCAT gate ({@code linear} null) or a LINEAR one on {@code parts}, or its value now. */
  private Value parts(int length, LocalGate.Linear linear, Value... parts) {
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

  /** A value whose shares are known now. */
  private static Value computed(int length, Shares shares) {
    Value out = length == 1 ? new SecretValue() : new VectorValue(length);
    out.shares = shares;
    return out;
  }

  private long[] element(long c) {
    long[] packed = field.alloc(1);
    field.encode(c, packed, 0);
    return packed;
  }

  private long[] element(BigInteger c) {
    long[] packed = field.alloc(1);
    field.encode(c, packed, 0);
    return packed;
  }

  private static Value v(Secret s) {
    return (Value) s;
  }

  private static Value v(SecretVector s) {
    return (Value) s;
  }

  private static void sameLength(SecretVector a, SecretVector b) {
    if (a.length() != b.length()) {
      throw new IllegalArgumentException(
          "vector lengths differ: " + a.length() + " and " + b.length());
    }
  }

  @Override
  public Secret add(Secret a, Secret b) {
    return local(LocalGate.Op.ADD, 1, null, 0, v(a), v(b));
  }

  @Override
  public Secret add(Secret a, long constant) {
    return local(LocalGate.Op.ADD_CONSTANT, 1, element(constant), 0, v(a));
  }

  @Override
  public Secret sub(Secret a, Secret b) {
    return local(LocalGate.Op.SUB, 1, null, 0, v(a), v(b));
  }

  @Override
  public Secret sub(long constant, Secret a) {
    return add(negate(a), constant);
  }

  @Override
  public Secret negate(Secret a) {
    return local(LocalGate.Op.NEGATE, 1, null, 0, v(a));
  }

  @Override
  public Secret mul(Secret a, Secret b) {
    return attach(new InteractiveGate.Multiply(scope, v(a), v(b)));
  }

  @Override
  public Secret mul(Secret a, long constant) {
    return local(LocalGate.Op.SCALE, 1, element(constant), 0, v(a));
  }

  @Override
  public Secret mul(Secret a, BigInteger constant) {
    return local(LocalGate.Op.SCALE, 1, element(constant), 0, v(a));
  }

  @Override
  public Secret sum(List<Secret> terms) {
    if (terms.isEmpty()) {
      return known(0);
    }
    return sum(vector(terms));
  }

  @Override
  public Secret innerProduct(List<Secret> a, List<Secret> b) {
    return innerProduct(vector(a), vector(b));
  }

  @Override
  public SecretVector add(SecretVector a, SecretVector b) {
    sameLength(a, b);
    return local(LocalGate.Op.ADD, a.length(), null, 0, v(a), v(b));
  }

  @Override
  public SecretVector add(SecretVector a, long constant) {
    return local(LocalGate.Op.ADD_CONSTANT, a.length(), element(constant), 0, v(a));
  }

  @Override
  public SecretVector sub(SecretVector a, SecretVector b) {
    sameLength(a, b);
    return local(LocalGate.Op.SUB, a.length(), null, 0, v(a), v(b));
  }

  @Override
  public SecretVector negate(SecretVector a) {
    return local(LocalGate.Op.NEGATE, a.length(), null, 0, v(a));
  }

  @Override
  public SecretVector mul(SecretVector a, SecretVector b) {
    sameLength(a, b);
    if (a.length() == 0) {
      return empty();
    }
    return attach(new InteractiveGate.Multiply(scope, v(a), v(b)));
  }

  @Override
  public SecretVector mul(SecretVector a, Secret s) {
    Value copies = local(LocalGate.Op.BROADCAST, a.length(), null, 0, v(s));
    return mul(a, (SecretVector) copies);
  }

  @Override
  public SecretVector mul(SecretVector a, long constant) {
    return local(LocalGate.Op.SCALE, a.length(), element(constant), 0, v(a));
  }

  @Override
  public SecretVector mul(SecretVector a, BigInteger constant) {
    return local(LocalGate.Op.SCALE, a.length(), element(constant), 0, v(a));
  }

  @Override
  public Secret sum(SecretVector a) {
    return local(LocalGate.Op.SUM, 1, null, 0, v(a));
  }

  @Override
  public Secret innerProduct(SecretVector a, SecretVector b) {
    return sum(mul(a, b));
  }

  // ---- reshaping ----

  @Override
  public SecretVector vector(List<Secret> elements) {
    Value[] in = new Value[elements.size()];
    for (int i = 0; i < in.length; i++) {
      in[i] = v(elements.get(i));
    }
    if (in.length == 0) {
      return empty();
    }
    return parts(in.length, null, in);
  }

  @Override
  public Secret get(SecretVector v, int index) {
    if (index < 0 || index >= v.length()) {
      throw new IndexOutOfBoundsException(
          "index " + index + " is outside a vector of length " + v.length());
    }
    return local(LocalGate.Op.SLICE, 1, null, index, v(v));
  }

  @Override
  public SecretVector slice(SecretVector v, int from, int to) {
    if (from < 0 || to > v.length() || from > to) {
      throw new IndexOutOfBoundsException(
          "slice [" + from + ", " + to + ") is outside a vector of length " + v.length());
    }
    return local(LocalGate.Op.SLICE, to - from, null, from, v(v));
  }

  @Override
  public SecretVector concat(SecretVector a, SecretVector b) {
    return parts(a.length() + b.length(), null, v(a), v(b));
  }

  // ---- opening ----

  private <T> Deferred<T> openOf(Value in, int receiver, Opened.Form form) {
    return openOf(in, receiver, form, 0);
  }

  private <T> Deferred<T> openOf(Value in, int receiver, Opened.Form form, int bits) {
    if (receiver >= 0) {
      checkParty(receiver, "open");
    }
    Opened<T> out = new Opened<>(scope, in, field, form, bits, receiver, suite.myId());
    if (in.length == 0) {
      out.release();
      out.set(receiver < 0 || isMine(receiver) ? new long[0] : null, 0);
      return out;
    }
    out.attach(graph);
    return out;
  }

  @Override
  public Deferred<Long> open(Secret a) {
    return openOf(v(a), -1, Opened.Form.LONG);
  }

  @Override
  public Deferred<BigInteger> openBig(Secret a) {
    return openOf(v(a), -1, Opened.Form.BIG);
  }

  @Override
  public Deferred<long[]> open(SecretVector a) {
    return openOf(v(a), -1, Opened.Form.LONGS);
  }

  @Override
  public Deferred<BigInteger[]> openBig(SecretVector a) {
    return openOf(v(a), -1, Opened.Form.BIGS);
  }

  @Override
  public Deferred<long[]> openLowBits(SecretVector a, int bits) {
    if (bits < 1) {
      throw new IllegalArgumentException("bits (" + bits + ") must be >= 1");
    }
    return openOf(v(a), -1, Opened.Form.LOW_BITS, bits);
  }

  @Override
  public Deferred<Long> openTo(int party, Secret a) {
    checkParty(party, "openTo");
    return openOf(v(a), party, Opened.Form.LONG);
  }

  @Override
  public Deferred<long[]> openTo(int party, SecretVector a) {
    checkParty(party, "openTo");
    return openOf(v(a), party, Opened.Form.LONGS);
  }

  // ---- randomness ----

  @Override
  public Secret random() {
    return attach(new InteractiveGate.Random(scope, false, 1));
  }

  @Override
  public SecretVector random(int length) {
    return randomVector(length, false);
  }

  @Override
  public Secret randomBit() {
    return attach(new InteractiveGate.Random(scope, true, 1));
  }

  @Override
  public SecretVector randomBits(int length) {
    return randomVector(length, true);
  }

  @Override
  public SecretVector randomMasks(int length, int bits) {
    if (length < 0) {
      throw new IllegalArgumentException("length (" + length + ") must be >= 0");
    }
    checkBits(bits, field.bitLength() - 2);
    if (length == 0) {
      return empty();
    }
    return attach(new InteractiveGate.RandomMask(scope, bits, length));
  }

  private SecretVector randomVector(int length, boolean bits) {
    if (length < 0) {
      throw new IllegalArgumentException("length (" + length + ") must be >= 0");
    }
    if (length == 0) {
      return empty();
    }
    return attach(new InteractiveGate.Random(scope, bits, length));
  }

  // ---- secrets computed by later steps ----

  /** The engine's value behind an application's secret handle. */
  static Value valueOf(Object secret) {
    if (secret instanceof Value v) {
      return v;
    }
    throw new IllegalArgumentException(
        "a step's value must be a Secret or SecretVector made by a builder, got "
            + (secret == null ? "null" : secret.getClass().getName()));
  }

  private <S> Value placeholder(Step<S> step, Value out) {
    LazyProtocolProducer<?, S> lazy =
        step instanceof LazyProtocolProducer<?, S> l
            ? l
            : (LazyProtocolProducer<?, S>) step.seq((s, v) -> Deferred.of(v));
    if (lazy.isComplete()) {
      Value computed = valueOf(lazy.get());
      out.shares = computed.shares();
    } else {
      lazy.forwardTo(out);
    }
    return out;
  }

  @Override
  public Secret secretOf(Step<? extends Secret> step) {
    return (Secret) placeholder(step, new SecretValue());
  }

  @Override
  public SecretVector vectorOf(Step<? extends SecretVector> step, int length) {
    return (SecretVector) placeholder(step, new VectorValue(length));
  }

  // ---- public vectors (local) ----

  private long[] elements(long[] constants, int expected) {
    if (constants.length != expected) {
      throw new IllegalArgumentException(
          "public vector has " + constants.length + " values for a secret vector of " + expected);
    }
    long[] packed = field.alloc(constants.length);
    for (int i = 0; i < constants.length; i++) {
      field.encode(constants[i], packed, i);
    }
    return packed;
  }

  @Override
  public SecretVector add(SecretVector a, long[] constants) {
    return local(LocalGate.Op.ADD_CONSTANTS, a.length(), elements(constants, a.length()), 0, v(a));
  }

  @Override
  public SecretVector linear(
      int n, List<SecretVector> vectors, int[] rows, List<long[]> coefficients, long[] constants) {
    int k = vectors.size();
    if (n < 0 || rows.length != k || coefficients.size() != k) {
      throw new IllegalArgumentException(
          "a linear form needs one row and one coefficient array per vector: "
              + k
              + " vectors, "
              + rows.length
              + " rows, "
              + coefficients.size()
              + " coefficient arrays, n = "
              + n);
    }
    if (constants != null && constants.length != n) {
      throw new IllegalArgumentException(
          constants.length + " constants for a linear form of " + n + " elements");
    }
    if (k == 0) {
      return known(constants == null ? new long[n] : constants);
    }
    List<Value> inputs = new ArrayList<>(2);
    int[] input = new int[k];
    int[] offsets = new int[k];
    long[][] c = new long[k][];
    for (int t = 0; t < k; t++) {
      Value v = v(vectors.get(t));
      if (rows[t] < 0 || (long) (rows[t] + 1) * n > v.length) {
        throw new IllegalArgumentException(
            "row " + rows[t] + " of " + n + " elements is outside a vector of length " + v.length);
      }
      int at = inputs.indexOf(v); // few distinct vectors: usually one to three
      if (at < 0) {
        at = inputs.size();
        inputs.add(v);
      }
      input[t] = at;
      offsets[t] = rows[t] * n;
      c[t] = checkedCoefficients(coefficients.get(t), n);
    }
    long[] packed = constants == null ? null : elements(constants, n);
    return parts(n, new LocalGate.Linear(input, offsets, c, packed), inputs.toArray(new Value[0]));
  }

  private static long[] checkedCoefficients(long[] c, int n) {
    if (c == null) {
      return null;
    }
    if (c.length != n) {
      throw new IllegalArgumentException(c.length + " coefficients for a row of " + n);
    }
    long bound = Field.LINEAR_COEFFICIENT_BOUND;
    for (long x : c) {
      if (x <= -bound || x >= bound) {
        throw new IllegalArgumentException(
            "coefficient " + x + " of a linear form is not below 2^31 in magnitude");
      }
    }
    return c;
  }

  @Override
  public SecretVector sumRows(SecretVector rows, int n, BigInteger[] scalars) {
    if (n < 0 || (long) scalars.length * n != rows.length()) {
      throw new IllegalArgumentException(
          scalars.length
              + " scalars for rows of "
              + n
              + " elements do not match a vector of length "
              + rows.length());
    }
    if (scalars.length == 0) {
      return known(new long[n]);
    }
    long[] packed = field.alloc(scalars.length);
    for (int i = 0; i < scalars.length; i++) {
      field.encode(scalars[i], packed, i);
    }
    return local(LocalGate.Op.SUM_ROWS, n, packed, n, v(rows));
  }

  @Override
  public SecretVector mul(SecretVector a, long[] constants) {
    return local(LocalGate.Op.SCALE_EACH, a.length(), elements(constants, a.length()), 0, v(a));
  }

  // ---- scopes ----

  @Override
  public <T> Step<T> seq(Computation<T> step) {
    LazyProtocolProducer<Object, T> producer =
        new LazyProtocolProducer<>(graph, scope, null, (b, ignored) -> step.build(b));
    producer.attach();
    return producer;
  }

  @Override
  public <T> Step<T> par(Computation<T> branch) {
    return seq(branch);
  }

  @Override
  public <T> Deferred<List<T>> par(List<? extends Computation<T>> branches) {
    List<Deferred<T>> results = new ArrayList<>(branches.size());
    for (Computation<T> branch : branches) {
      results.add(par(branch));
    }
    return () -> {
      List<T> values = new ArrayList<>(results.size());
      for (Deferred<T> d : results) {
        values.add(d.get());
      }
      return values;
    };
  }

  @Override
  public <T> Step<T> loop(T initial, Predicate<? super T> condition, StepFunction<T, T> body) {
    SequentialProtocolProducer<T> loop =
        new SequentialProtocolProducer<>(graph, scope, initial, condition, body);
    loop.attach();
    return loop;
  }
}
