package dev.mailsift.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.opensearch.analysis.common.CommonAnalysisPlugin;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.settings.Settings;
import org.opensearch.env.Environment;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.painless.PainlessPlugin;
import org.opensearch.plugins.Plugin;
import org.opensearch.transport.Netty4Plugin;

/**
 * One OpenSearch node of a loopback cluster, one JVM per node so that a test can kill a single
 * node with {@code kill -9}. The node is embedded (no distribution, no bootstrap checks): the
 * server jar and the plugin modules come from Maven Central and are loaded from the classpath.
 *
 * <p>Usage: {@code Launcher DATA_DIR NODE_INDEX NODE_COUNT HTTP_BASE_PORT CLUSTER_NAME}. Node i
 * listens on HTTP port base+i and transport port base+100+i, keeps its data under
 * DATA_DIR/node-i, and bootstraps a new cluster with the other nodes (so DATA_DIR must be fresh).
 * It stops gracefully on SIGTERM (the shutdown hook closes the node).
 */
public final class Launcher {
  /** Transport ports sit this far above the HTTP ports (9200 → 9300, as in a distribution). */
  static final int TRANSPORT_OFFSET = 100;

  /** Node's plugin-taking constructor is protected. */
  private static final class ClasspathNode extends Node {
    ClasspathNode(Environment env, Collection<Class<? extends Plugin>> plugins) {
      super(env, plugins, true);
    }

    // The default installs a JVM-wide log converter for the node and cluster ids; not needed here.
    @Override
    protected void configureNodeAndClusterIdStateListener(ClusterService clusterService) {}
  }

  private Launcher() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 5) {
      System.err.println("usage: Launcher DATA_DIR NODE_INDEX NODE_COUNT HTTP_BASE_PORT CLUSTER_NAME");
      System.exit(2);
    }
    Path base = Paths.get(args[0]).toAbsolutePath();
    int index = Integer.parseInt(args[1]);
    int count = Integer.parseInt(args[2]);
    int httpBase = Integer.parseInt(args[3]);
    String clusterName = args[4];

    List<String> seeds = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      seeds.add("127.0.0.1:" + (httpBase + TRANSPORT_OFFSET + i));
      names.add("node-" + i);
    }
    String name = "node-" + index;
    Path home = base.resolve(name);
    Files.createDirectories(home.resolve("config"));
    Settings settings = Settings.builder()
        .put("cluster.name", clusterName)
        .put("node.name", name)
        .put("path.home", home.toString())
        .put("path.data", home.resolve("data").toString())
        .put("network.host", "127.0.0.1")
        .put("http.port", httpBase + index)
        .put("transport.port", httpBase + TRANSPORT_OFFSET + index)
        .putList("discovery.seed_hosts", seeds)
        .putList("cluster.initial_cluster_manager_nodes", names)
        // A test machine's disk may be fuller than the watermarks; shards must still allocate.
        .put("cluster.routing.allocation.disk.threshold_enabled", false)
        // Small heaps (256 MB) trip the real-memory breaker on bulk requests during GC.
        .put("indices.breaker.total.use_real_memory", false)
        .build();
    Environment env = InternalSettingsPreparer.prepareEnvironment(settings, Map.of(), home.resolve("config"), () -> name);
    List<Class<? extends Plugin>> plugins = new ArrayList<>(List.of(Netty4Plugin.class, CommonAnalysisPlugin.class, PainlessPlugin.class));
    // The k-NN plugin comes unpacked from its zip (target/knn/*, on the classpath the script
    // gives): loaded by name, so the launcher builds without it on the compile classpath.
    plugins.add(Class.forName("org.opensearch.knn.plugin.KNNPlugin").asSubclass(Plugin.class));
    Node node = new ClasspathNode(env, plugins);

    CountDownLatch closed = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        node.close();
      } catch (Exception e) {
        e.printStackTrace();
      } finally {
        closed.countDown();
      }
    }, "mailsift-shutdown"));
    // Blocks until a cluster-manager is elected (or discovery.initial_state_timeout passes).
    node.start();
    System.out.println("STARTED " + name);
    // OpenSearch's threads are daemons: keep the JVM alive until the shutdown hook has run.
    closed.await();
  }
}
