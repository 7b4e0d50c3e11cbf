package dev.cohort.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code cohort demo}: groups the demos; on its own it lists them. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    version = "0.1.0",
    description = "Runs a demo computation and prints its result and costs.",
    subcommands = {
      DemoDistanceAverage.class,
      DemoAuction.class,
      DemoFilteredAverage.class,
      DemoInnerProduct.class
    })
final class DemoCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
