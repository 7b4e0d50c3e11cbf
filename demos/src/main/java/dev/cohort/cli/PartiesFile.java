package dev.cohort.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The parties of a multi-process deployment: where each party listens, and the keys directory that
 * {@code cohort keys} wrote. Every party reads the same file.
 *
 * <pre>
 * # id  host        port   [client port]  [offline=PORT]
 * keys  keys                  (a directory; relative to this file's directory)
 * 0     127.0.0.1   7000   7100           offline=7200
 * 1     127.0.0.1   7001   7101           offline=7201
 * 2     127.0.0.1   7002   7102           offline=7202
 * </pre>
 *
 * <p>The client port, on the same host, is where {@code cohort server} takes input clients and
 * where {@code cohort client} connects; parties that take no clients leave it out. The offline
 * port, on the same host, is where the party's SPDZ offline phase listens when it runs in the
 * background of the demo ({@code --offline-phase}): a second mesh of the same parties with the same
 * certificates, beside the online phase's; parties that do not run it leave it out. No two
 * endpoints of the file (a party's port, client port or offline port) may be the same.
 *
 * <p>Ids must be 0..n-1, each once; {@code #} starts a comment. A party reads only {@code ca.pem}
 * and its own {@code party-<id>.pem} and {@code party-<id>-key.pem} from the keys directory.
 */
record PartiesFile(
    List<InetSocketAddress> addresses,
    Path keys,
    List<Integer> clientPorts,
    List<Integer> offlinePorts) {

  /** The field of a party's line that gives its offline port. */
  static final String OFFLINE_FIELD = "offline=";

  /**
   * Every party's address for the background offline phase, in party order; throws naming the first
   * party that the file gives no offline port.
   */
  List<InetSocketAddress> offlineAddresses(Path file) {
    List<InetSocketAddress> offline = new ArrayList<>();
    for (int id = 0; id < parties(); id++) {
      Integer port = offlinePorts.get(id);
      if (port == null) {
        throw new IllegalArgumentException(
            "parties file "
                + file
                + " gives P"
                + id
                + " no offline port, which --offline-phase with --party needs: end its line with"
                + " '"
                + OFFLINE_FIELD
                + "PORT' (a port of its own for the offline phase's mesh)");
      }
      offline.add(new InetSocketAddress(addresses.get(id).getHostString(), port));
    }
    return offline;
  }

  /** Party {@code id}'s address for input clients; throws when the file gives it none. */
  InetSocketAddress clientAddress(int id, Path file) {
    Integer port = clientPorts.get(id);
    if (port == null) {
      throw new IllegalArgumentException(
          "parties file "
              + file
              + " gives P"
              + id
              + " no client port: write it as a fourth field, 'ID HOST PORT CLIENT_PORT'");
    }
    return new InetSocketAddress(addresses.get(id).getHostString(), port);
  }

  int parties() {
    return addresses.size();
  }

  static PartiesFile read(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("parties file " + file + " does not exist");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read parties file " + file, e);
    }
    TreeMap<Integer, InetSocketAddress> byId = new TreeMap<>();
    TreeMap<Integer, Integer> clientPortById = new TreeMap<>();
    TreeMap<Integer, Integer> offlinePortById = new TreeMap<>();
    Path keys = null;
    Path base = file.toAbsolutePath().getParent();
    for (int i = 0; i < lines.size(); i++) {
      int number = i + 1;
      String line = lines.get(i);
      int hash = line.indexOf('#');
      String[] fields = (hash >= 0 ? line.substring(0, hash) : line).strip().split("\\s+");
      if (fields.length == 1 && fields[0].isEmpty()) {
        continue;
      }
      if (fields[0].equals("keys")) {
        if (fields.length != 2) {
          throw malformed(file, number, "expected 'keys DIR'");
        }
        keys = base.resolve(fields[1]);
        continue;
      }
      Integer offlinePort = null;
      if (fields.length > 3 && fields[fields.length - 1].startsWith(OFFLINE_FIELD)) {
        offlinePort = offlinePort(file, number, fields[fields.length - 1]);
        fields = java.util.Arrays.copyOf(fields, fields.length - 1);
      }
      if (fields.length != 3 && fields.length != 4) {
        throw malformed(
            file, number, "expected 'ID HOST PORT [CLIENT_PORT] [offline=PORT]' or 'keys DIR'");
      }
      int id;
      int port;
      int clientPort = 0;
      try {
        id = Integer.parseInt(fields[0]);
        port = Integer.parseInt(fields[2]);
        if (fields.length == 4) {
          clientPort = Integer.parseInt(fields[3]);
        }
      } catch (NumberFormatException e) {
        throw malformed(file, number, "id and ports must be integers");
      }
      if (id < 0
          || port < 1
          || port > 65535
          || fields.length == 4 && (clientPort < 1 || clientPort > 65535 || clientPort == port)) {
        throw malformed(
            file, number, "id must be >= 0 and ports in [1, 65535], the client port another one");
      }
      if (fields.length == 4) {
        clientPortById.put(id, clientPort);
      }
      if (offlinePort != null) {
        if (offlinePort == port || fields.length == 4 && offlinePort == clientPort) {
          throw malformed(
              file, number, "the offline port must differ from the party's other ports");
        }
        offlinePortById.put(id, offlinePort);
      }
      if (byId.put(id, InetSocketAddress.createUnresolved(fields[1], port)) != null) {
        throw malformed(file, number, "P" + id + " is listed twice");
      }
    }
    if (byId.size() < 2 || byId.lastKey() != byId.size() - 1) {
      throw new IllegalArgumentException(
          "parties file "
              + file
              + " must list parties 0..n-1 with n >= 2, got ids "
              + byId.keySet());
    }
    List<InetSocketAddress> addresses = new ArrayList<>();
    for (InetSocketAddress unresolved : byId.values()) {
      addresses.add(new InetSocketAddress(unresolved.getHostString(), unresolved.getPort()));
    }
    for (int a = 0; a < addresses.size(); a++) {
      for (int b = a + 1; b < addresses.size(); b++) {
        if (sameEndpoint(addresses.get(a), addresses.get(b))) {
          throw new IllegalArgumentException(
              "parties file "
                  + file
                  + " gives P"
                  + a
                  + " and P"
                  + b
                  + " the same address "
                  + addresses.get(a).getHostString()
                  + ":"
                  + addresses.get(a).getPort()
                  + ": every party needs its own port");
        }
      }
    }
    List<Integer> clientPorts = new ArrayList<>();
    List<Integer> offlinePorts = new ArrayList<>();
    for (int id : byId.keySet()) {
      clientPorts.add(clientPortById.get(id));
      offlinePorts.add(offlinePortById.get(id));
    }
    checkOfflinePorts(file, addresses, offlinePorts);
    return new PartiesFile(
        List.copyOf(addresses),
        keys,
        java.util.Collections.unmodifiableList(clientPorts),
        java.util.Collections.unmodifiableList(offlinePorts));
  }

  private static int offlinePort(Path file, int line, String field) {
    try {
      int port = Integer.parseInt(field.substring(OFFLINE_FIELD.length()));
      if (port >= 1 && port <= 65535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // the message below says what is expected
    }
    throw malformed(file, line, "expected 'offline=PORT' with PORT in [1, 65535], got " + field);
  }

  /** Refuses an offline port that is another party's port or offline port on the same host. */
  private static void checkOfflinePorts(
      Path file, List<InetSocketAddress> addresses, List<Integer> offlinePorts) {
    for (int a = 0; a < addresses.size(); a++) {
      if (offlinePorts.get(a) == null) {
        continue;
      }
      InetSocketAddress offline =
          new InetSocketAddress(addresses.get(a).getHostString(), offlinePorts.get(a));
      for (int b = 0; b < addresses.size(); b++) {
        boolean clash =
            b != a && sameEndpoint(offline, addresses.get(b))
                || b > a
                    && offlinePorts.get(b) != null
                    && sameEndpoint(
                        offline,
                        new InetSocketAddress(
                            addresses.get(b).getHostString(), offlinePorts.get(b)));
        if (clash) {
          throw new IllegalArgumentException(
              "parties file "
                  + file
                  + " gives the offline port of P"
                  + a
                  + " ("
                  + offline.getHostString()
                  + ":"
                  + offline.getPort()
                  + ") to P"
                  + b
                  + " as well: every party needs ports of its own");
        }
      }
    }
  }

  /** The same port on the same host: by name, or by address where both names resolved. */
  private static boolean sameEndpoint(InetSocketAddress a, InetSocketAddress b) {
    if (a.getPort() != b.getPort()) {
      return false;
    }
    if (a.getHostString().equalsIgnoreCase(b.getHostString())) {
      return true;
    }
    return !a.isUnresolved() && !b.isUnresolved() && a.getAddress().equals(b.getAddress());
  }

  /**
   * Refuses a file in which this party's own host does not resolve: it could never listen there. (A
   * peer's host may resolve later, once the peer is up: it is dialed again until then.)
   */
  void checkOwnHost(int self, Path file) {
    InetSocketAddress own = addresses.get(self);
    if (own.isUnresolved()) {
      throw new IllegalArgumentException(
          "parties file "
              + file
              + ": this party's host "
              + own.getHostString()
              + " (P"
              + self
              + ") does not resolve to an address");
    }
  }

  private static IllegalArgumentException malformed(Path file, int line, String why) {
    return new IllegalArgumentException("parties file " + file + " line " + line + ": " + why);
  }
}
