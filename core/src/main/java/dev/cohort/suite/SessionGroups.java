package dev.cohort.suite;

/**
 * The suites of one party whose engine runs sessions in groups ({@code EngineConfig.withGroups}):
 * the factory of the engine's own suite (runs not in groups) and one per group, each group's suite
 * an engine of its own on its own thread. Made once per engine by {@link SuiteFactory#groups}, so
 * what the suites of one party share (a source of preprocessed material) is shared by exactly these
 * suites and no others.
 *
 * <p>Runs on one engine happen one after another: {@link #beforeRun} is called with no suite of
 * these running, and between two of its calls only groups 0 to {@code running − 1} run.
 */
public interface SessionGroups {

  /** The factory of the engine's own suite, for its runs that are not in groups. */
  SuiteFactory whole();

  /** The factory of the suite of group {@code group}. */
  SuiteFactory group(int group);

  /**
   * Called before each run in groups, while no suite of this party runs: groups 0 to {@code running
   * − 1} take part in it (the same number at every party). A suite that hands out shared material
   * by group starts a new division here; the default does nothing.
   */
  default void beforeRun(int running) {}

  /** Groups whose suites share nothing: every factory is {@code factory}. */
  static SessionGroups sharingNothing(SuiteFactory factory) {
    return new SessionGroups() {
      @Override
      public SuiteFactory whole() {
        return factory;
      }

      @Override
      public SuiteFactory group(int group) {
        return factory;
      }
    };
  }
}
