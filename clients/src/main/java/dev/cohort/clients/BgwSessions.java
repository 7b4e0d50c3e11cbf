package dev.cohort.clients;

import dev.cohort.field.Field;
import dev.cohort.random.Prg;
import dev.cohort.suite.Shares;
import java.util.EnumMap;
import java.util.Map;

/**
 * One server's side of BGW sessions (servers semi-honest, clients malicious), once a session has
 * closed: the close round ({@link ServerRounds#close}) fixes the candidates and the coefficients,
 * and one round of check values ({@link BgwValidation}) decides on each candidate.
 */
final class BgwSessions {

  private final ServerRounds rounds;
  private final Field field;
  private final Shape shape;
  private final BgwValidation validation;
  private final Canonical canonical;
  private final Prg prg;

  BgwSessions(ServerRounds rounds, Shamir shamir, Shape shape, Canonical canonical, Prg prg) {
    this.rounds = rounds;
    this.field = shamir.field;
    this.shape = shape;
    this.validation = new BgwValidation(shamir, shape);
    this.canonical = canonical;
    this.prg = prg;
  }

  /** The close round, then one round of check values; the verdict on every candidate. */
  SessionCheck check(SessionInbox inbox, int[] received) {
    long session = inbox.session;
    ServerRounds.Closed agreed =
        rounds.close(session, received, new long[] {prg.nextLong(), prg.nextLong()});
    int[] candidates = agreed.candidates();
    validation.coefficients(agreed.seed());
    long[] mine = field.alloc(2 * candidates.length);
    for (int k = 0; k < candidates.length; k++) {
      validation.checkValues(inbox.words(candidates[k]), mine, k);
    }
    long[][] all = rounds.all(mine);
    for (int i = 0; i < all.length; i++) {
      if (all[i].length != mine.length || !canonical.all(all[i])) {
        throw new IllegalStateException(
            "server " + i + " sent malformed check values in session " + session);
      }
    }
    Map<Exclusion, Integer> excluded = new EnumMap<>(Exclusion.class);
    SessionCheck.count(
        excluded, Exclusion.NOT_AT_EVERY_SERVER, received.length - candidates.length);
    Exclusion[] verdicts = new Exclusion[candidates.length];
    int valid = 0;
    long[] one = field.alloc(1);
    for (int k = 0; k < candidates.length; k++) {
      int v = validation.verdict(all, k, one);
      if (v == BgwValidation.VALID) {
        valid++;
      } else {
        verdicts[k] =
            v == BgwValidation.INCONSISTENT
                ? Exclusion.INCONSISTENT_SHARES
                : Exclusion.OUT_OF_RANGE;
        SessionCheck.count(excluded, verdicts[k], 1);
      }
    }
    return new SessionCheck(
        candidates, verdicts, inputs(inbox, candidates, verdicts, valid), excluded);
  }

  private Columns inputs(SessionInbox inbox, int[] candidates, Exclusion[] verdicts, int valid) {
    Shares[] columns = new Shares[shape.columns()];
    for (int c = 0; c < columns.length; c++) {
      columns[c] = new Shares(valid, field.alloc(valid), null);
    }
    int at = 0;
    for (int k = 0; k < candidates.length; k++) {
      if (verdicts[k] == null) {
        long[] w = inbox.words(candidates[k]);
        for (int c = 0; c < columns.length; c++) {
          validation.valueShare(w, c, columns[c].share, at);
        }
        at++;
      }
    }
    return new Columns(shape, columns);
  }
}
