package dev.cohort.producer;

import dev.cohort.api.Deferred;
import dev.cohort.api.PartyId;
import dev.cohort.field.Field;
import java.math.BigInteger;

/**
 * The deferred plain result of an open gate, decoded to the signed integers the application
 * declared: {@code Long}, {@code BigInteger}, {@code long[]} or {@code BigInteger[]}.
 */
final class Opened<T> implements Deferred<T> {

  enum Form {
    LONG,
    BIG,
    LONGS,
    BIGS
  }

  private final Field field;
  private final Form form;
  private final int receiver;
  private final int self;
  private boolean done;
  private long[] packed;
  private T decoded;

  Opened(Field field, Form form, int receiver, int self) {
    this.field = field;
    this.form = form;
    this.receiver = receiver;
    this.self = self;
  }

  void set(long[] value) {
    packed = value;
    done = true;
  }

  @Override
  @SuppressWarnings("unchecked")
  public T get() {
    if (!done) {
      throw new IllegalStateException(
          "opened value is not available yet: read it in a later step (seq) or after the run");
    }
    if (packed == null) {
      throw new IllegalStateException(
          "value was opened to " + PartyId.of(receiver) + " only, not to " + PartyId.of(self));
    }
    if (decoded == null) {
      decoded = (T) decode();
    }
    return decoded;
  }

  private Object decode() {
    int words = field.words();
    int n = packed.length / words;
    switch (form) {
      case LONG:
        return field.decodeLong(packed, 0);
      case BIG:
        return field.decodeSigned(packed, 0);
      case LONGS:
        long[] longs = new long[n];
        for (int i = 0; i < n; i++) {
          longs[i] = field.decodeLong(packed, i);
        }
        return longs;
      case BIGS:
        BigInteger[] bigs = new BigInteger[n];
        for (int i = 0; i < n; i++) {
          bigs[i] = field.decodeSigned(packed, i);
        }
        return bigs;
      default:
        throw new AssertionError(form);
    }
  }
}
