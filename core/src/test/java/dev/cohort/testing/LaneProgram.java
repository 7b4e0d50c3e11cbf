package dev.cohort.testing;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.Numeric;
import dev.cohort.api.Secret;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * A random program of calls on single secrets, the shape of one kind of session in a sessions run,
 * and its plaintext evaluation: the oracle for the batching of sessions into lanes. Every session
 * runs the same calls with its own input values and constants (drawn from the session's index), so
 * sessions of one program fit one trace; {@link Kind#SUM} (through a vector) and {@link Kind#STEP}
 * are calls the trace does not take, so a program with them makes a session leave the batch.
 *
 * <p>Values are kept below 2^60 in absolute value (the generator tracks each wire's bound), so an
 * opened value fits a {@code long} over either field and the reference needs no reduction beyond
 * mod p for negative values.
 */
public final class LaneProgram {

  /** The calls a program makes. */
  public enum Kind {
    INPUT,
    KNOWN,
    ADD,
    ADD_CONSTANT,
    SUB,
    SUB_FROM_CONSTANT,
    NEGATE,
    MUL,
    MUL_CONSTANT,
    /** A random element minus itself: zero, through random() and sub. */
    RANDOM_ZERO,
    /** b·(1 − b) for a random bit b: zero, through randomBit(), sub from 1 and mul. */
    BIT_ZERO,
    /** sum(List.of(x, y, x)): taken by the trace, as a chain of additions. */
    SUM_OF_LIST,
    /** sum(vector(List.of(x, y))): vectors are not taken by the trace. */
    SUM,
    /** seq(c → c.open(x + 0)): not taken by the trace; opens. */
    STEP,
    OPEN,
    OPEN_TO
  }

  /** Call {@code kind} on wires {@code a} and {@code b} (-1: none), by or to {@code party}. */
  record Call(Kind kind, int a, int b, int party) {}

  private static final int BITS = 16;
  private static final int CONSTANT_BITS = 8;
  private static final int LIMIT = 60;

  private final List<Call> calls;
  private final long seed;
  private final AtomicIntegerArray builds; // per session index: times its computation was called

  private LaneProgram(List<Call> calls, long seed, int sessions) {
    this.calls = calls;
    this.seed = seed;
    this.builds = new AtomicIntegerArray(sessions);
  }

  /**
   * A random program of about {@code length} calls for {@code parties} parties, with calls of
   * {@code untraced} kinds (SUM, STEP) mixed in only when asked; {@code sessions} bounds the
   * session indices it counts builds for.
   */
  public static LaneProgram random(
      long seed, int parties, int length, boolean untraced, int sessions) {
    Random r = new Random(seed);
    List<Call> calls = new ArrayList<>();
    List<Integer> bound = new ArrayList<>(); // bits of each wire's absolute value, +1
    List<Integer> wires = new ArrayList<>(); // the call that made each wire
    for (int p = 0; p < parties; p++) {
      calls.add(new Call(Kind.INPUT, -1, -1, p));
      bound.add(BITS);
      wires.add(calls.size() - 1);
    }
    int opens = 0;
    while (calls.size() < length || opens == 0) {
      Kind k = Kind.values()[r.nextInt(Kind.values().length)];
      if (!untraced && (k == Kind.SUM || k == Kind.STEP)) {
        continue;
      }
      int a = r.nextInt(bound.size());
      int b = r.nextInt(bound.size());
      int bits =
          switch (k) {
            case INPUT -> BITS;
            case KNOWN -> CONSTANT_BITS;
            case ADD, SUB, SUM -> Math.max(bound.get(a), bound.get(b)) + 1;
            case SUM_OF_LIST -> Math.max(bound.get(a), bound.get(b)) + 2;
            case ADD_CONSTANT, SUB_FROM_CONSTANT -> Math.max(bound.get(a), CONSTANT_BITS) + 1;
            case NEGATE -> bound.get(a);
            case MUL -> bound.get(a) + bound.get(b);
            case MUL_CONSTANT -> bound.get(a) + CONSTANT_BITS;
            case RANDOM_ZERO, BIT_ZERO -> 1;
            case STEP, OPEN, OPEN_TO -> 0; // no wire
          };
      if (bits > LIMIT) {
        continue;
      }
      calls.add(new Call(k, a, b, r.nextInt(parties)));
      if (k == Kind.STEP || k == Kind.OPEN || k == Kind.OPEN_TO) {
        opens++;
      } else {
        bound.add(bits);
        wires.add(calls.size() - 1);
      }
    }
    return new LaneProgram(calls, seed, sessions);
  }

  /** This program with one more call, {@code kind}, inserted at call {@code at}. */
  public LaneProgram with(Kind kind, int at, int sessions) {
    List<Call> c = new ArrayList<>(calls);
    // operands 0 and 1 are inputs, always there and bounded by BITS
    c.add(at, new Call(kind, 0, 1, 0));
    return new LaneProgram(shift(c, at), seed ^ 0x5DEECE66DL, sessions);
  }

  /** The first {@code count} calls of this program: a session that stops short of the others. */
  public LaneProgram prefix(int count, int sessions) {
    return new LaneProgram(new ArrayList<>(calls.subList(0, count)), seed, sessions);
  }

  /** Renumbers wire operands past an inserted call that makes a wire. */
  private static List<Call> shift(List<Call> c, int at) {
    Kind k = c.get(at).kind();
    if (k == Kind.STEP || k == Kind.OPEN || k == Kind.OPEN_TO) {
      return c;
    }
    int inserted = wiresBefore(c, at);
    List<Call> out = new ArrayList<>(c.size());
    for (int i = 0; i < c.size(); i++) {
      Call x = c.get(i);
      if (i > at) {
        x = new Call(x.kind(), bump(x.a(), inserted), bump(x.b(), inserted), x.party());
      }
      out.add(x);
    }
    return out;
  }

  private static int bump(int wire, int inserted) {
    return wire >= inserted ? wire + 1 : wire;
  }

  private static int wiresBefore(List<Call> c, int at) {
    int n = 0;
    for (int i = 0; i < at; i++) {
      Kind k = c.get(i).kind();
      if (k != Kind.STEP && k != Kind.OPEN && k != Kind.OPEN_TO) {
        n++;
      }
    }
    return n;
  }

  /** The number of calls. */
  public int size() {
    return calls.size();
  }

  /** Calls of {@code kind} in the program. */
  public int count(Kind kind) {
    int n = 0;
    for (Call c : calls) {
      n += c.kind() == kind ? 1 : 0;
    }
    return n;
  }

  /** How many times session {@code session}'s computation was called, at all parties together. */
  public int builds(int session) {
    return builds.get(session);
  }

  /** Session {@code session}'s value for call {@code call}: an input or a constant. */
  private long value(int session, int call) {
    SplittableRandom r = new SplittableRandom(seed * 1_000_003L + session * 7919L + call);
    int bits = calls.get(call).kind() == Kind.INPUT ? BITS : CONSTANT_BITS;
    return r.nextLong(-(1L << (bits - 1)), 1L << (bits - 1));
  }

  /**
   * Session {@code session} as party {@code self} runs it: its opened values in call order, null
   * where an opening went to another party.
   */
  public Computation<List<Long>> computation(int session, int self) {
    return b -> {
      builds.incrementAndGet(session);
      List<Secret> w = new ArrayList<>();
      List<Deferred<Long>> opened = new ArrayList<>();
      List<Boolean> mine = new ArrayList<>();
      for (int i = 0; i < calls.size(); i++) {
        Call c = calls.get(i);
        Secret x = c.a() < 0 ? null : w.get(c.a());
        Secret y = c.b() < 0 ? null : w.get(c.b());
        long v = c.kind() == Kind.INPUT || isConstant(c.kind()) ? value(session, i) : 0;
        switch (c.kind()) {
          case INPUT -> w.add(b.input(c.party(), c.party() == self ? v : 0, BITS));
          case KNOWN -> w.add(b.known(v));
          case ADD -> w.add(b.add(x, y));
          case ADD_CONSTANT -> w.add(b.add(x, v));
          case SUB -> w.add(b.sub(x, y));
          case SUB_FROM_CONSTANT -> w.add(b.sub(v, x));
          case NEGATE -> w.add(b.negate(x));
          case MUL -> w.add(b.mul(x, y));
          case MUL_CONSTANT -> w.add(b.mul(x, v));
          case RANDOM_ZERO -> {
            Secret r = b.random();
            w.add(b.sub(r, r));
          }
          case BIT_ZERO -> {
            Secret bit = b.randomBit();
            w.add(b.mul(bit, b.sub(1, bit)));
          }
          case SUM_OF_LIST -> w.add(b.sum(List.of(x, y, x)));
          case SUM -> w.add(b.sum(b.vector(List.of(x, y))));
          case STEP -> {
            opened.add(b.seq((Numeric s) -> s.open(s.add(x, 0))));
            mine.add(true);
          }
          case OPEN -> {
            opened.add(b.open(x));
            mine.add(true);
          }
          case OPEN_TO -> {
            opened.add(b.openTo(c.party(), x));
            mine.add(c.party() == self);
          }
        }
      }
      return () -> {
        List<Long> out = new ArrayList<>(opened.size());
        for (int i = 0; i < opened.size(); i++) {
          out.add(mine.get(i) ? opened.get(i).get() : null);
        }
        return out;
      };
    };
  }

  private static boolean isConstant(Kind k) {
    return k == Kind.KNOWN
        || k == Kind.ADD_CONSTANT
        || k == Kind.SUB_FROM_CONSTANT
        || k == Kind.MUL_CONSTANT;
  }

  /** What party {@code self} must get from session {@code session}, computed with BigInteger. */
  public List<Long> expected(int session, int self) {
    List<BigInteger> w = new ArrayList<>();
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < calls.size(); i++) {
      Call c = calls.get(i);
      BigInteger x = c.a() < 0 ? null : w.get(c.a());
      BigInteger y = c.b() < 0 ? null : w.get(c.b());
      BigInteger v =
          c.kind() == Kind.INPUT || isConstant(c.kind())
              ? BigInteger.valueOf(value(session, i))
              : null;
      switch (c.kind()) {
        case INPUT, KNOWN -> w.add(v);
        case ADD, SUM -> w.add(x.add(y));
        case SUM_OF_LIST -> w.add(x.add(y).add(x));
        case ADD_CONSTANT -> w.add(x.add(v));
        case SUB -> w.add(x.subtract(y));
        case SUB_FROM_CONSTANT -> w.add(v.subtract(x));
        case NEGATE -> w.add(x.negate());
        case MUL -> w.add(x.multiply(y));
        case MUL_CONSTANT -> w.add(x.multiply(v));
        case RANDOM_ZERO, BIT_ZERO -> w.add(BigInteger.ZERO);
        case STEP, OPEN -> out.add(x.longValueExact());
        case OPEN_TO -> out.add(c.party() == self ? x.longValueExact() : null);
      }
    }
    return out;
  }
}
