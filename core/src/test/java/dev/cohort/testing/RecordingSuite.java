package dev.cohort.testing;

import dev.cohort.field.Field;
import dev.cohort.random.Prg;
import dev.cohort.suite.ForwardingProtocol;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;
import dev.cohort.suite.SuiteFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * A suite that records, per party, the shares every input and multiplication produced (value
 * column, then MAC column where there is one), in the order they finished: to compare two runs
 * share for share (one thread against several, say).
 */
public final class RecordingSuite extends ForwardingSuite {

  private final List<long[]> record;

  private RecordingSuite(Suite delegate, List<long[]> record) {
    super(delegate);
    this.record = record;
  }

  /**
   * Wraps {@code inner}; party p's shares go to {@code records.get(p)} (lists made here, one per
   * party, before the run).
   */
  public static SuiteFactory wrap(SuiteFactory inner, List<List<long[]>> records, int parties) {
    records.clear();
    for (int p = 0; p < parties; p++) {
      records.add(new ArrayList<>());
    }
    return new SuiteFactory() {
      @Override
      public String name() {
        return inner.name() + "+recorded";
      }

      @Override
      public Field field() {
        return inner.field();
      }

      @Override
      public void validate(int parties) {
        inner.validate(parties);
      }

      @Override
      public Suite create(int party, int parties, Prg prg) {
        return new RecordingSuite(inner.create(party, parties, prg), records.get(party));
      }
    };
  }

  @Override
  public RoundProtocol input(int owner, long[] values, int length) {
    return recorded(delegate.input(owner, values, length));
  }

  @Override
  public RoundProtocol input(int owner, long[] values, int length, int bits) {
    return recorded(delegate.input(owner, values, length, bits));
  }

  @Override
  public RoundProtocol multiply(Shares a, Shares b) {
    return recorded(delegate.multiply(a, b));
  }

  private RoundProtocol recorded(RoundProtocol p) {
    return new ForwardingProtocol(p) {
      @Override
      public Shares shares() {
        Shares s = p.shares();
        synchronized (record) {
          record.add(s.share.clone());
          if (s.mac != null) {
            record.add(s.mac.clone());
          }
        }
        return s;
      }
    };
  }
}
