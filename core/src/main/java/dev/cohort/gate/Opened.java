package dev.cohort.gate;

import dev.cohort.api.Deferred;
import dev.cohort.api.PartyId;
import dev.cohort.field.Field;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Suite;
import java.math.BigInteger;

/**
 * An open gate and its deferred plain result, decoded to the signed integers the application
 * declared: {@code Long}, {@code BigInteger}, {@code long[]} or {@code BigInteger[]}; or, for
 * {@link Form#LOW_BITS}, the low bits of each representative in [0, p), as words. The gate is the
 * result the application holds (one object per open, not two); its value part is unused.
 *
 * <p>The opened elements stay where the open protocol left them, in the array of the whole batch:
 * the gates of a batch share it (read only), so opening 1000 scalars costs no array per scalar.
 */
final class Opened<T> extends InteractiveGate implements Deferred<T> {

  enum Form {
    LONG,
    BIG,
    LONGS,
    BIGS,
    LOW_BITS
  }

  private Value input; // until it has been read
  private final Field field;
  private final Form form;
  private final int bits; // for LOW_BITS
  private final int self;
  private long[] packed; // the batch's opened elements, this value's from element `from`
  private int from = -1; // -1 until set
  private T decoded;

  /** Opens {@code input} to {@code receiver} (to everyone when negative), as party {@code self}. */
  Opened(Scope scope, Value input, Field field, Form form, int bits, int receiver, int self) {
    super(scope, Kind.OPEN, receiver, input.length);
    this.input = input;
    this.field = field;
    this.form = form;
    this.bits = bits;
    this.self = self;
  }

  @Override
  void awaitInputs() {
    await(input);
  }

  @Override
  Value operand(int index) {
    return input;
  }

  @Override
  void release() {
    input = null;
  }

  @Override
  RoundProtocol startGroup(Suite suite, int size, int total) {
    return suite.open(gather(size, 0, total, suite.field().words()), param);
  }

  @Override
  void finishGroup(RoundProtocol protocol, int size, Graph graph) {
    long[] all = protocol.opened(); // null where this party receives nothing
    int at = 0;
    InteractiveGate g = this;
    while (g != null) {
      Opened<?> gate = (Opened<?>) g;
      g = g.next;
      gate.next = null;
      gate.release();
      gate.set(all, at);
      at += gate.length;
      gate.completed(graph);
    }
  }

  /**
   * Sets the value to the {@code length} packed elements of {@code batch} from element {@code
   * from}; {@code batch} null: this party is not a receiver.
   */
  void set(long[] batch, int from) {
    packed = batch;
    this.from = from;
  }

  @Override
  @SuppressWarnings("unchecked")
  public T get() {
    if (from < 0) {
      throw new IllegalStateException(
          "opened value is not available yet: read it in a later step (seq) or after the run");
    }
    if (packed == null) {
      throw new IllegalStateException(
          "value was opened to " + PartyId.of(param) + " only, not to " + PartyId.of(self));
    }
    if (decoded == null) {
      decoded = (T) decode();
    }
    return decoded;
  }

  private Object decode() {
    int words = field.words();
    int n = length;
    switch (form) {
      case LONG:
        return field.decodeLong(packed, from);
      case BIG:
        return field.decodeSigned(packed, from);
      case LONGS:
        long[] longs = new long[n];
        for (int i = 0; i < n; i++) {
          longs[i] = field.decodeLong(packed, from + i);
        }
        return longs;
      case BIGS:
        BigInteger[] bigs = new BigInteger[n];
        for (int i = 0; i < n; i++) {
          bigs[i] = field.decodeSigned(packed, from + i);
        }
        return bigs;
      case LOW_BITS:
        return lowBits(n, words);
      default:
        throw new AssertionError(form);
    }
  }

  /** The low {@code bits} bits of each element: field words are little-endian and canonical. */
  private long[] lowBits(int n, int words) {
    int per = (bits + 63) / 64;
    long top = bits % 64 == 0 ? -1L : (1L << (bits % 64)) - 1;
    long[] low = new long[n * per];
    int start = from * words;
    for (int i = 0; i < n; i++) {
      for (int w = 0; w < per && w < words; w++) {
        low[i * per + w] = packed[start + i * words + w];
      }
      low[i * per + per - 1] &= top;
    }
    return low;
  }
}
