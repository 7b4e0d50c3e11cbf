package dev.cohort.cli;

import java.io.PrintWriter;
import java.util.Arrays;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * The {@code cohort} command line: the root command, with one subcommand class per command.
 *
 * <p>Errors reach the user as one line {@code cohort: <message>} on standard error, never as a
 * stack trace unless {@code --verbose} is given. Each kind of failure has its own exit code ({@link
 * ExitCode}): mistakes in the arguments (including values that a command rejects while it validates
 * them, by throwing {@link ParameterException}) and in the configuration exit with 2, a failed peer
 * with 3, an abort with 4, a local I/O error with 5, used-up SPDZ material with 6, an unexpected
 * error (a bug) with 1.
 */
@Command(
    name = "cohort",
    mixinStandardHelpOptions = true,
    version = "0.1.0",
    description = "Secure multiparty computation by secret sharing.",
    subcommands = {
      DemoCommand.class,
      BenchCommand.class,
      KeysCommand.class,
      PreprocessCommand.class,
      ServerCommand.class,
      ClientCommand.class
    })
public final class Cohort implements Runnable {

  /** The option that makes errors print their stack trace. */
  static final String VERBOSE = "--verbose";

  @Spec CommandSpec spec;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /**
   * The root command with its error handlers installed: what {@link #main} runs, and what tests
   * call {@code execute} on (after {@code setOut}/{@code setErr} to capture the output).
   */
  public static CommandLine commandLine() {
    return new CommandLine(new Cohort())
        .setParameterExceptionHandler(new UsageErrorHandler())
        .setExecutionExceptionHandler(new FailureHandler());
  }

  /** Called by picocli for a bare {@code cohort}: shows what there is. */
  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Wrong arguments: one line, exit code 2. */
  private static final class UsageErrorHandler implements IParameterExceptionHandler {
    @Override
    public int handleParseException(ParameterException ex, String[] args) {
      CommandLine commandLine = ex.getCommandLine();
      PrintWriter err = commandLine.getErr();
      err.println("cohort: " + messageOf(ex));
      if (Arrays.asList(args).contains(VERBOSE)) {
        ex.printStackTrace(err);
      }
      err.flush();
      return commandLine.getCommandSpec().exitCodeOnInvalidInput();
    }
  }

  /** A command failed while running: one line, the exit code of its kind ({@link ExitCode}). */
  private static final class FailureHandler implements IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(
        Exception ex, CommandLine commandLine, ParseResult parseResult) {
      PrintWriter err = commandLine.getErr();
      int code = ExitCode.of(ex);
      if (verbose(parseResult)) {
        err.println("cohort: " + messageOf(ex));
        ex.printStackTrace(err);
      } else if (code == ExitCode.INTERNAL) {
        err.println(
            "cohort: "
                + messageOf(ex)
                + " (an unexpected error: "
                + VERBOSE
                + " shows the stack trace; please report it)");
      } else {
        err.println("cohort: " + messageOf(ex));
      }
      err.flush();
      return code;
    }

    private static boolean verbose(ParseResult parseResult) {
      for (ParseResult r = parseResult; r != null; r = r.subcommand()) {
        if (r.hasMatchedOption(VERBOSE)) {
          return true;
        }
      }
      return false;
    }
  }

  private static String messageOf(Throwable t) {
    String message = t.getMessage();
    return message == null || message.isBlank() ? t.getClass().getSimpleName() : message;
  }
}
