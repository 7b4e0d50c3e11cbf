package dev.cohort.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code cohort bench}: groups the measurements; on its own it lists them. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    version = "0.1.0",
    description =
        "Measures the demos over ranges of settings, and loads a deployment of input servers.",
    subcommands = {BenchSweep.class, BenchClients.class, BenchLoad.class})
final class BenchCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
