package dev.cohort.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** Test support for {@code cohort server} processes: their deployment files and their logs. */
final class ServerProcesses {

  private ServerProcesses() {}

  /**
   * Keys for 3 parties and {@code clients} input clients in {@code dir/keys}, and {@code
   * dir/parties.txt} giving each party a free mesh port and a free client port on loopback.
   */
  static Path deployment(Path dir, int clients) throws IOException {
    Cli.Run keys =
        Cli.cohort(
            "keys",
            "--parties",
            "3",
            "--clients",
            Integer.toString(clients),
            "--out",
            dir.resolve("keys").toString());
    assertEquals(0, keys.exitCode(), keys.all());
    StringBuilder file = new StringBuilder("keys keys\n");
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      for (int p = 0; p < 3; p++) {
        ServerSocket mesh = new ServerSocket(0);
        ServerSocket link = new ServerSocket(0);
        sockets.add(mesh);
        sockets.add(link);
        file.append(p)
            .append(" 127.0.0.1 ")
            .append(mesh.getLocalPort())
            .append(' ')
            .append(link.getLocalPort())
            .append('\n');
      }
    } finally {
      for (ServerSocket s : sockets) {
        s.close();
      }
    }
    Path parties = dir.resolve("parties.txt");
    Files.writeString(parties, file);
    return parties;
  }

  /**
   * Waits (on the directory's change events, not by polling) until the log {@code log} that a
   * process writes satisfies {@code done}, for at most 60 s; returns its text then.
   */
  static String awaitLog(Path log, Predicate<String> done) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    Path dir = log.toAbsolutePath().getParent();
    try (WatchService watch = dir.getFileSystem().newWatchService()) {
      dir.register(
          watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY);
      while (true) {
        String text = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        if (done.test(text)) {
          return text;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("waited 60 s in vain on " + log + ":\n" + text);
        }
        var key = watch.poll(left, TimeUnit.NANOSECONDS);
        if (key != null) {
          key.pollEvents();
          key.reset();
        }
      }
    }
  }
}
