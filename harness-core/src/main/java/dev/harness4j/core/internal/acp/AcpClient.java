package dev.harness4j.core.internal.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.AcpSession;
import dev.harness4j.api.McpServer;
import dev.harness4j.core.process.Conversation;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client side of one ACP session over the agent's stdio: {@code initialize}, {@code
 * session/new} (cwd the workspace, the run's MCP servers; {@code session/load} of the earlier
 * session on a follow-up, under the same id), {@code session/prompt}, answers to the
 * agent's requests ({@link AcpPermissionAnswer} for {@code session/request_permission}, "method
 * not found" for the rest), {@code session/cancel} on a stop. Finished once the prompt was
 * answered, a handshake request was refused, or a handshake answer is later than its timeout; stdin
 * is closed then. What the agent said is read from its stdout by the adapter, not kept here.
 */
public final class AcpClient implements Conversation {
    /** How long the agent may take to answer {@code initialize} and {@code session/new} each: 120 s. */
    public static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(120);

    private static final Logger log = LoggerFactory.getLogger(AcpClient.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int METHOD_NOT_FOUND = -32601;

    private final String runId;
    private final AcpSession session;
    private final Path workspace;
    private final String prompt;
    private final List<McpServer> mcpServers;
    private final Duration handshakeTimeout;
    private final AcpPermissionAnswer permissions;
    private final String resumeSession;
    private final CountDownLatch answered = new CountDownLatch(1);
    private final Object writeLock = new Object();

    private OutputStream stdin;
    private volatile String sessionId;
    private volatile boolean finished;
    private volatile long handshakeDeadline;

    /**
     * A client for one run.
     *
     * @param runId the run's id, for log lines
     * @param session the adapter's description
     * @param workspace the run's workspace (the session's cwd)
     * @param prompt the run's prompt
     * @param mcpServers the run's MCP servers
     * @param handshakeTimeout how long each handshake answer may take
     */
    public AcpClient(String runId, AcpSession session, Path workspace, String prompt, List<McpServer> mcpServers,
            Duration handshakeTimeout) {
        this(runId, session, workspace, prompt, mcpServers, handshakeTimeout, null);
    }

    /**
     * A client for one run, continuing an earlier session of the agent's with {@code session/load}
     * (in place of {@code session/new}) when {@code resumeSession} is given.
     *
     * @param runId the run's id, for log lines
     * @param session the adapter's description
     * @param workspace the run's workspace (the session's cwd)
     * @param prompt the run's prompt
     * @param mcpServers the run's MCP servers
     * @param handshakeTimeout how long each handshake answer may take
     * @param resumeSession the agent's session a follow-up continues, or {@code null} for a new one
     */
    public AcpClient(String runId, AcpSession session, Path workspace, String prompt, List<McpServer> mcpServers,
            Duration handshakeTimeout, String resumeSession) {
        this.resumeSession = resumeSession;
        this.runId = runId;
        this.session = session;
        this.workspace = workspace.toAbsolutePath().normalize();
        this.prompt = prompt;
        this.mcpServers = List.copyOf(mcpServers);
        this.handshakeTimeout = handshakeTimeout;
        this.permissions = new AcpPermissionAnswer(session.permissions(), this.workspace);
    }

    @Override
    public void start(OutputStream in) throws IOException {
        synchronized (writeLock) {
            this.stdin = in;
        }
        ObjectNode params = JSON.createObjectNode().put("protocolVersion", AcpSession.PROTOCOL_VERSION);
        ObjectNode caps = params.putObject("clientCapabilities");
        caps.putObject("fs").put("readTextFile", false).put("writeTextFile", false);
        caps.put("terminal", false);
        params.putObject("clientInfo").put("name", "harness4j").put("version", "1");
        request(AcpSession.INITIALIZE_ID, "initialize", params, true);
    }

    @Override
    public void line(String line) {
        JsonNode msg;
        try {
            msg = JSON.readTree(line);
        } catch (IOException e) {
            log.debug("run {}: the agent printed a line that is not JSON: {}", runId, e.getMessage());
            return;
        }
        if (msg == null || !msg.isObject()) {
            return;
        }
        JsonNode id = msg.get("id");
        String method = msg.path("method").asText(null);
        if (method != null && id != null && !id.isNull()) {
            answerRequest(id, method, msg.path("params"));
        } else if (method == null && id != null && (msg.has("result") || msg.has("error"))) {
            response(id.asInt(-1), msg);
        }
    }

    private void response(int id, JsonNode msg) {
        boolean refused = msg.has("error");
        if (id == AcpSession.INITIALIZE_ID) {
            if (refused) {
                finish();
                return;
            }
            ObjectNode params = JSON.createObjectNode();
            if (resumeSession != null) {
                params.put("sessionId", resumeSession);
            }
            params.put("cwd", workspace.toString());
            params.set("mcpServers", AcpMcpServers.toJson(mcpServers, JSON));
            request(AcpSession.NEW_SESSION_ID, resumeSession != null ? "session/load" : "session/new", params, true);
        } else if (id == AcpSession.NEW_SESSION_ID) {
            String sid = msg.path("result").path("sessionId").asText(resumeSession); // session/load answers no id
            if (refused || sid == null) {
                finish();
                return;
            }
            sessionId = sid;
            if (session.mode() != null) {
                ObjectNode params = JSON.createObjectNode().put("sessionId", sid).put("modeId", session.mode());
                request(AcpSession.SET_MODE_ID, "session/set_mode", params, true);
            } else {
                prompt(sid);
            }
        } else if (id == AcpSession.SET_MODE_ID) {
            if (refused) {
                finish();
                return;
            }
            prompt(sessionId);
        } else if (id == AcpSession.PROMPT_ID) {
            answered.countDown();
            finish();
        }
    }

    private void prompt(String sid) {
        ObjectNode params = JSON.createObjectNode().put("sessionId", sid);
        params.putArray("prompt").addObject().put("type", "text").put("text", prompt);
        request(AcpSession.PROMPT_ID, "session/prompt", params, false);
    }

    private void answerRequest(JsonNode id, String method, JsonNode params) {
        ObjectNode out = JSON.createObjectNode().put("jsonrpc", "2.0");
        out.set("id", id);
        if ("session/request_permission".equals(method)) {
            out.set("result", permissions.answer(params, JSON));
        } else {
            out.putObject("error").put("code", METHOD_NOT_FOUND)
                    .put("message", "harness4j offers no " + method + " (it declares no client capabilities)");
        }
        write(out);
    }

    private void request(int id, String method, ObjectNode params, boolean handshake) {
        handshakeDeadline = handshake ? System.nanoTime() + handshakeTimeout.toNanos() : 0;
        ObjectNode out = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        out.set("params", params);
        write(out);
    }

    private void write(ObjectNode message) {
        synchronized (writeLock) {
            if (stdin == null) {
                return;
            }
            try {
                stdin.write((JSON.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8));
                stdin.flush();
            } catch (IOException e) {
                log.debug("run {}: could not write to the agent: {}", runId, e.toString());
            }
        }
    }

    private void finish() {
        finished = true;
        handshakeDeadline = 0;
        synchronized (writeLock) {
            if (stdin != null) {
                try {
                    stdin.close();
                } catch (IOException e) {
                    log.debug("run {}: closing the agent's stdin: {}", runId, e.toString());
                }
                stdin = null;
            }
        }
    }

    @Override
    public boolean finished() {
        long deadline = handshakeDeadline;
        if (!finished && deadline != 0 && System.nanoTime() - deadline >= 0) {
            log.info("run {}: the agent did not answer the ACP handshake within {}; ending the session", runId,
                    handshakeTimeout);
            finish();
        }
        return finished;
    }

    @Override
    public void cancel(Duration wait) {
        String sid = sessionId;
        if (sid == null || finished) {
            return;
        }
        ObjectNode out = JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "session/cancel");
        out.putObject("params").put("sessionId", sid);
        write(out);
        try {
            answered.await(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The session the agent opened, or null before {@code session/new} was answered. */
    public String sessionId() {
        return sessionId;
    }

    /** The session's description. */
    public AcpSession session() {
        return session;
    }
}
