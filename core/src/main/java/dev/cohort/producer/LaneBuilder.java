package dev.cohort.producer;

import dev.cohort.api.ClientInputs;
import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.Numeric;
import dev.cohort.api.Secret;
import dev.cohort.api.SecretVector;
import dev.cohort.api.Step;
import dev.cohort.api.StepFunction;
import dev.cohort.field.Field;
import dev.cohort.gate.Graph;
import dev.cohort.producer.Lanes.LaneSecret;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * The builder the sessions of one batch run against, one session (lane) after the other ({@link
 * Lanes}): the first session's calls become the trace, one entry each; every later session must
 * make the same calls on the same entries, and its inputs and constants fill its lane of each
 * entry's column. A call the trace cannot take, or one that differs from it, builds the session on
 * its own from there ({@link #alone}). Once every lane is in, {@link #buildBatch} builds each entry
 * once, as a vector over the lanes.
 *
 * <p>Why one file of over 400 lines: like {@link Builder}, it implements the 57 methods of {@link
 * Numeric}; most of them only hand the session to a builder of its own.
 */
final class LaneBuilder implements Numeric {

  private static final byte INPUT = 0;
  private static final byte KNOWN = 1;
  private static final byte ADD = 2;
  private static final byte ADD_CONSTANT = 3;
  private static final byte SUB = 4;
  private static final byte NEGATE = 5;
  private static final byte MUL = 6;
  private static final byte MUL_CONSTANT = 7;
  private static final byte RANDOM = 8;
  private static final byte RANDOM_BIT = 9;
  private static final byte OPEN = 10;

  private final Graph graph;
  private final Field field;
  private final int first; // the index of the batch's first session in the run
  private final int capacity; // lanes at most
  private final Runnable onComplete; // once per session

  // The trace: entry e is a call of kind kinds[e] on entries as[e] and bs[e] (-1: none), with
  // parameter params[e] (input owner, opening receiver or -1) and bits[e] (an input's bits), and
  // one public value per lane in data[e] (inputs, constants; null for other kinds).
  private int count;
  private byte[] kinds = new byte[8];
  private int[] as = new int[8];
  private int[] bs = new int[8];
  private int[] params = new int[8];
  private int[] bits = new int[8];
  private long[][] data = new long[8][];
  private OpenSlot[] slots = new OpenSlot[8];
  private final Object[] results;

  // The lane being built.
  private int lane = -1;
  private int session;
  private int cursor; // the next entry its next call must match
  private Object[] handles = new Object[8]; // its handles, per entry, for building it alone
  private Builder alone; // once it has left the trace: its own builder
  private Root<Object> aloneRoot;
  private ParallelProtocolProducer aloneScope;

  LaneBuilder(Graph graph, int first, int capacity, Runnable onComplete) {
    this.graph = graph;
    this.field = Lanes.field(graph);
    this.first = first;
    this.capacity = capacity;
    this.onComplete = onComplete;
    this.results = new Object[capacity];
  }

  /** Where the opened vector of an opening entry will be, once the batch is built. */
  static final class OpenSlot {
    Deferred<long[]> vector;
  }

  /** One lane's opened value: element {@code lane} of its entry's opened vector. */
  static final class LaneOpened implements Deferred<Long> {
    private final OpenSlot slot;
    private final int lane;
    Deferred<Long> real; // once its session was built alone

    LaneOpened(OpenSlot slot, int lane) {
      this.slot = slot;
      this.lane = lane;
    }

    @Override
    public Long get() {
      if (real != null) {
        return real.get();
      }
      Deferred<long[]> vector = slot.vector;
      if (vector == null) {
        throw new IllegalStateException(
            "opened value is not available yet: read it in a later step (seq) or after the run");
      }
      return vector.get()[lane];
    }
  }

  // ---- lanes ----

  void startLane(int session) {
    lane++;
    this.session = session;
    cursor = 0;
    alone = null;
  }

  /**
   * Ends the lane with the session's {@code result}: null when the session followed the whole trace
   * (its result is then {@link #result}), else the session's own completed root.
   */
  Deferred<?> endLane(Deferred<?> result) {
    if (alone == null && (lane == 0 || cursor == count)) {
      results[lane] = result;
      return null;
    }
    alone(); // it stopped short of the trace: built alone, as far as it went
    aloneRoot.finish(graph, aloneScope, uncheckedResult(result));
    return aloneRoot;
  }

  @SuppressWarnings("unchecked")
  private static Deferred<Object> uncheckedResult(Deferred<?> result) {
    return (Deferred<Object>) result;
  }

  /** The result of lane {@code i}, a session that followed the trace. */
  Object result(int i) {
    return results[i];
  }

  /**
   * The session's own builder, from its first call on: its calls so far are replayed into gates of
   * its own and its handles bound to them.
   */
  private Builder alone() {
    if (alone == null) {
      aloneRoot = new Root<>(onComplete);
      aloneScope = new ParallelProtocolProducer(aloneRoot, session);
      alone = new Builder(graph, aloneScope);
      for (int e = 0; e < cursor; e++) {
        replay(e);
      }
    }
    return alone;
  }

  private void replay(int e) {
    Object h = handles[e];
    switch (kinds[e]) {
      case INPUT -> bind(h, alone.input(params[e], data[e][lane], bits[e]));
      case KNOWN -> bind(h, alone.known(data[e][lane]));
      case ADD -> bind(h, alone.add(bound(as[e]), bound(bs[e])));
      case ADD_CONSTANT -> bind(h, alone.add(bound(as[e]), data[e][lane]));
      case SUB -> bind(h, alone.sub(bound(as[e]), bound(bs[e])));
      case NEGATE -> bind(h, alone.negate(bound(as[e])));
      case MUL -> bind(h, alone.mul(bound(as[e]), bound(bs[e])));
      case MUL_CONSTANT -> bind(h, alone.mul(bound(as[e]), data[e][lane]));
      case RANDOM -> bind(h, alone.random());
      case RANDOM_BIT -> bind(h, alone.randomBit());
      case OPEN ->
          ((LaneOpened) h).real =
              params[e] < 0 ? alone.open(bound(as[e])) : alone.openTo(params[e], bound(as[e]));
      default -> throw new AssertionError(kinds[e]);
    }
  }

  private static void bind(Object handle, Secret value) {
    ((LaneSecret) handle).real = Lanes.valueOf(value);
  }

  private Secret bound(int entry) {
    return ((LaneSecret) handles[entry]).real;
  }

  /**
   * Builds the trace once for lanes [0, n) as vectors, in one scope that completes once all of them
   * have: the batch's gates.
   */
  void buildBatch(int n) {
    Root<Object> root =
        new Root<>(
            () -> {
              for (int i = 0; i < n; i++) {
                onComplete.run();
              }
            });
    ParallelProtocolProducer scope = new ParallelProtocolProducer(root, first);
    Builder b = new Builder(graph, scope);
    SecretVector[] v = new SecretVector[count];
    for (int e = 0; e < count; e++) {
      SecretVector x = as[e] < 0 ? null : v[as[e]];
      SecretVector y = bs[e] < 0 ? null : v[bs[e]];
      switch (kinds[e]) {
        case INPUT -> v[e] = b.input(params[e], Lanes.column(data, e, n), n, bits[e]);
        case KNOWN -> v[e] = b.known(Lanes.column(data, e, n));
        case ADD -> v[e] = b.add(x, y);
        case ADD_CONSTANT -> v[e] = b.add(x, Lanes.column(data, e, n));
        case SUB -> v[e] = b.sub(x, y);
        case NEGATE -> v[e] = b.negate(x);
        case MUL -> v[e] = b.mul(x, y);
        case MUL_CONSTANT -> v[e] = b.mul(x, Lanes.column(data, e, n));
        case RANDOM -> v[e] = b.random(n);
        case RANDOM_BIT -> v[e] = b.randomBits(n);
        case OPEN -> slots[e].vector = params[e] < 0 ? b.open(x) : b.openTo(params[e], x);
        default -> throw new AssertionError(kinds[e]);
      }
    }
    root.finish(graph, scope, Deferred.of(null));
  }

  // ---- the trace ----

  /** The entry of operand {@code s} in this lane, or -1 when it is not one of this lane's. */
  private int operand(Secret s) {
    return s instanceof LaneSecret l && l.owner == this && l.lane == lane && l.real == null
        ? l.entry
        : -1;
  }

  /**
   * The entry this call takes: a new one in lane 0, the matching next one in later lanes; -1 when
   * the call does not match (the session then leaves the trace).
   */
  private int record(byte kind, int a, int b, int param, int bitLength) {
    if (alone != null) {
      return -1;
    }
    if (lane == 0) {
      if (count == kinds.length) {
        grow();
      }
      int e = count++;
      kinds[e] = kind;
      as[e] = a;
      bs[e] = b;
      params[e] = param;
      bits[e] = bitLength;
      if (kind == INPUT || kind == KNOWN || kind == ADD_CONSTANT || kind == MUL_CONSTANT) {
        data[e] = new long[capacity];
      } else if (kind == OPEN) {
        slots[e] = new OpenSlot();
      }
      cursor = count;
      return e;
    }
    int e = cursor;
    if (e >= count
        || kinds[e] != kind
        || as[e] != a
        || bs[e] != b
        || params[e] != param
        || bits[e] != bitLength) {
      return -1;
    }
    cursor++;
    return e;
  }

  private void grow() {
    int n = kinds.length * 2;
    kinds = Arrays.copyOf(kinds, n);
    as = Arrays.copyOf(as, n);
    bs = Arrays.copyOf(bs, n);
    params = Arrays.copyOf(params, n);
    bits = Arrays.copyOf(bits, n);
    data = Arrays.copyOf(data, n);
    slots = Arrays.copyOf(slots, n);
    handles = Arrays.copyOf(handles, n);
  }

  private Secret handle(int e) {
    LaneSecret h = new LaneSecret(this, e, lane);
    handles[e] = h;
    return h;
  }

  private Secret valued(int e, long value) {
    data[e][lane] = value;
    return handle(e);
  }

  /** A call on two secrets: traced, or passed to the session's own builder. */
  private int binary(byte kind, Secret x, Secret y) {
    int a = operand(x);
    int b = operand(y);
    return a < 0 || b < 0 ? -1 : record(kind, a, b, -1, 0);
  }

  private int unary(byte kind, Secret x) {
    int a = operand(x);
    return a < 0 ? -1 : record(kind, a, -1, -1, 0);
  }

  // ---- the parties and the field ----

  @Override
  public int myId() {
    return graph.suite().myId();
  }

  @Override
  public int parties() {
    return graph.suite().parties();
  }

  @Override
  public int fieldBits() {
    return field.bitLength();
  }

  @Override
  public BigInteger modulus() {
    return field.modulus();
  }

  // ---- traced calls ----

  @Override
  public Secret input(int party, long value, int bitLength) {
    Encoding.checkParty(parties(), party, "input");
    Encoding.checkBits(field, bitLength, Encoding.maxLongInputBits(field));
    if (party == myId()) {
      Encoding.checkRange(party, value, bitLength);
    }
    int e = record(INPUT, -1, -1, party, bitLength);
    return e < 0 ? alone().input(party, value, bitLength) : valued(e, value);
  }

  @Override
  public Secret known(long value) {
    int e = record(KNOWN, -1, -1, -1, 0);
    return e < 0 ? alone().known(value) : valued(e, value);
  }

  @Override
  public Secret add(Secret a, Secret b) {
    int e = binary(ADD, a, b);
    return e < 0 ? alone().add(a, b) : handle(e);
  }

  @Override
  public Secret add(Secret a, long constant) {
    int x = operand(a);
    int e = x < 0 ? -1 : record(ADD_CONSTANT, x, -1, -1, 0);
    return e < 0 ? alone().add(a, constant) : valued(e, constant);
  }

  @Override
  public Secret sub(Secret a, Secret b) {
    int e = binary(SUB, a, b);
    return e < 0 ? alone().sub(a, b) : handle(e);
  }

  @Override
  public Secret sub(long constant, Secret a) {
    return add(negate(a), constant);
  }

  @Override
  public Secret negate(Secret a) {
    int e = unary(NEGATE, a);
    return e < 0 ? alone().negate(a) : handle(e);
  }

  @Override
  public Secret mul(Secret a, Secret b) {
    int e = binary(MUL, a, b);
    return e < 0 ? alone().mul(a, b) : handle(e);
  }

  @Override
  public Secret mul(Secret a, long constant) {
    int x = operand(a);
    int e = x < 0 ? -1 : record(MUL_CONSTANT, x, -1, -1, 0);
    return e < 0 ? alone().mul(a, constant) : valued(e, constant);
  }

  @Override
  public Secret random() {
    int e = record(RANDOM, -1, -1, -1, 0);
    return e < 0 ? alone().random() : handle(e);
  }

  @Override
  public Secret randomBit() {
    int e = record(RANDOM_BIT, -1, -1, -1, 0);
    return e < 0 ? alone().randomBit() : handle(e);
  }

  @Override
  public Deferred<Long> open(Secret a) {
    return opening(-1, a);
  }

  @Override
  public Deferred<Long> openTo(int party, Secret a) {
    Encoding.checkParty(parties(), party, "openTo");
    return opening(party, a);
  }

  private Deferred<Long> opening(int receiver, Secret a) {
    int x = operand(a);
    int e = x < 0 ? -1 : record(OPEN, x, -1, receiver, 0);
    if (e < 0) {
      return receiver < 0 ? alone().open(a) : alone().openTo(receiver, a);
    }
    LaneOpened o = new LaneOpened(slots[e], lane);
    handles[e] = o;
    return o;
  }

  // ---- calls the trace does not take: the session is built alone ----

  @Override
  public Secret input(int party, BigInteger value, int bitLength) {
    return alone().input(party, value, bitLength);
  }

  @Override
  public SecretVector input(int party, long[] values, int length, int bitLength) {
    return alone().input(party, values, length, bitLength);
  }

  @Override
  public SecretVector clientInputs(ClientInputs inputs, int column) {
    return alone().clientInputs(inputs, column);
  }

  @Override
  public Secret known(BigInteger value) {
    return alone().known(value);
  }

  @Override
  public SecretVector known(long[] values) {
    return alone().known(values);
  }

  @Override
  public SecretVector known(BigInteger[] values) {
    return alone().known(values);
  }

  @Override
  public Secret mul(Secret a, BigInteger constant) {
    return alone().mul(a, constant);
  }

  /**
   * A sum of this lane's secrets, traced as a chain of additions (the same value as the builder's
   * sum); an empty sum is the constant 0 and a sum of one term that term plus 0, as in {@link
   * Builder#sum(List)}.
   */
  @Override
  public Secret sum(List<Secret> terms) {
    if (terms.isEmpty()) {
      return known(0);
    }
    int e = operand(terms.get(0));
    if (e >= 0 && terms.size() == 1) {
      e = record(ADD_CONSTANT, e, -1, -1, 0);
      return e < 0 ? alone().sum(terms) : valued(e, 0);
    }
    for (int i = 1; i < terms.size() && e >= 0; i++) {
      int next = operand(terms.get(i));
      e = next < 0 ? -1 : record(ADD, e, next, -1, 0);
      if (e >= 0) {
        handle(e); // each partial sum gets a handle, so a replay can bind it
      }
    }
    return e < 0 ? alone().sum(terms) : handles(e);
  }

  private Secret handles(int e) {
    return (Secret) handles[e];
  }

  @Override
  public Secret innerProduct(List<Secret> a, List<Secret> b) {
    return alone().innerProduct(a, b);
  }

  @Override
  public SecretVector add(SecretVector a, SecretVector b) {
    return alone().add(a, b);
  }

  @Override
  public SecretVector add(SecretVector a, long constant) {
    return alone().add(a, constant);
  }

  @Override
  public SecretVector sub(SecretVector a, SecretVector b) {
    return alone().sub(a, b);
  }

  @Override
  public SecretVector negate(SecretVector a) {
    return alone().negate(a);
  }

  @Override
  public SecretVector mul(SecretVector a, SecretVector b) {
    return alone().mul(a, b);
  }

  @Override
  public SecretVector mul(SecretVector a, Secret s) {
    return alone().mul(a, s);
  }

  @Override
  public SecretVector mul(SecretVector a, long constant) {
    return alone().mul(a, constant);
  }

  @Override
  public SecretVector mul(SecretVector a, BigInteger constant) {
    return alone().mul(a, constant);
  }

  @Override
  public SecretVector add(SecretVector a, long[] constants) {
    return alone().add(a, constants);
  }

  @Override
  public SecretVector mul(SecretVector a, long[] constants) {
    return alone().mul(a, constants);
  }

  @Override
  public Secret sum(SecretVector a) {
    return alone().sum(a);
  }

  @Override
  public Secret innerProduct(SecretVector a, SecretVector b) {
    return alone().innerProduct(a, b);
  }

  @Override
  public SecretVector linear(
      int n, List<SecretVector> vectors, int[] rows, List<long[]> coefficients, long[] constants) {
    return alone().linear(n, vectors, rows, coefficients, constants);
  }

  @Override
  public SecretVector sumRows(SecretVector rows, int n, BigInteger[] scalars) {
    return alone().sumRows(rows, n, scalars);
  }

  @Override
  public SecretVector vector(List<Secret> elements) {
    return alone().vector(elements);
  }

  @Override
  public Secret get(SecretVector v, int index) {
    return alone().get(v, index);
  }

  @Override
  public SecretVector slice(SecretVector v, int from, int to) {
    return alone().slice(v, from, to);
  }

  @Override
  public SecretVector concat(SecretVector a, SecretVector b) {
    return alone().concat(a, b);
  }

  @Override
  public Deferred<BigInteger> openBig(Secret a) {
    return alone().openBig(a);
  }

  @Override
  public Deferred<long[]> open(SecretVector a) {
    return alone().open(a);
  }

  @Override
  public Deferred<BigInteger[]> openBig(SecretVector a) {
    return alone().openBig(a);
  }

  @Override
  public Deferred<long[]> openLowBits(SecretVector a, int bitLength) {
    return alone().openLowBits(a, bitLength);
  }

  @Override
  public Deferred<long[]> openTo(int party, SecretVector a) {
    return alone().openTo(party, a);
  }

  @Override
  public SecretVector random(int length) {
    return alone().random(length);
  }

  @Override
  public SecretVector randomBits(int length) {
    return alone().randomBits(length);
  }

  @Override
  public SecretVector randomMasks(int length, int bitLength) {
    return alone().randomMasks(length, bitLength);
  }

  @Override
  public Secret secretOf(Step<? extends Secret> step) {
    return alone().secretOf(step);
  }

  @Override
  public SecretVector vectorOf(Step<? extends SecretVector> step, int length) {
    return alone().vectorOf(step, length);
  }

  @Override
  public <T> Step<T> seq(Computation<T> step) {
    return alone().seq(step);
  }

  @Override
  public <T> Step<T> par(Computation<T> branch) {
    return alone().par(branch);
  }

  @Override
  public <T> Deferred<List<T>> par(List<? extends Computation<T>> branches) {
    return alone().par(branches);
  }

  @Override
  public <T> Step<T> loop(T initial, Predicate<? super T> condition, StepFunction<T, T> body) {
    return alone().loop(initial, condition, body);
  }
}
