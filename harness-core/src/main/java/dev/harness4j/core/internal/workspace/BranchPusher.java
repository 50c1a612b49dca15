package dev.harness4j.core.internal.workspace;

import dev.harness4j.core.workspace.BranchPush;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jgit.lib.Config;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pushes a run's result to {@code harnesstests/<task>/<harness>__<provider>__<model>/<runId>} on the baseline's remote, best-effort:
 * every failure becomes a {@link BranchPush} with an error, never an exception. Uncommitted work
 * is included by pushing a snapshot commit (made with {@code git commit-tree} on top of the
 * workspace's HEAD, without moving HEAD or touching any ref). The remote is {@code origin} when
 * the baseline has one, else its first remote. Thread-safe.
 */
public final class BranchPusher {
    private static final Logger log = LoggerFactory.getLogger(BranchPusher.class);

    /** How long a push may take before it is abandoned: 2 minutes. */
    public static final Duration DEFAULT_PUSH_TIMEOUT = Duration.ofMinutes(2);

    /** The branch prefix results are pushed under. */
    public static final String PREFIX = "harnesstests/";

    private static final Map<String, String> IDENTITY = Map.of(
            "GIT_AUTHOR_NAME", "harness4j", "GIT_AUTHOR_EMAIL", "harness4j@localhost",
            "GIT_COMMITTER_NAME", "harness4j", "GIT_COMMITTER_EMAIL", "harness4j@localhost",
            "GIT_SSH_COMMAND", "ssh -o BatchMode=yes");

    private static final Pattern SCHEME_USERINFO = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*://)([^/@]*@)(.*)$", Pattern.DOTALL);
    private static final Pattern SCP_USERINFO = Pattern.compile("^([^/@:]+(?::[^/@]*)?@)([^/:]+:.*)$", Pattern.DOTALL);

    private final GitCli git;

    public BranchPusher(Workspaces workspaces, Duration timeout) {
        Objects.requireNonNull(workspaces, "workspaces");
        Objects.requireNonNull(timeout, "timeout");
        this.git = new GitCli(workspaces.git().executable(), timeout);
    }

    /**
     * Pushes the workspace's result.
     *
     * @param combo the branch name's tail, e.g. {@code fix-bug/opencode__local__gemma4-31b/<runId>}
     * @return empty when the baseline has no remote
     */
    public Optional<BranchPush> push(Workspace ws, CapturedChanges captured, String combo) {
        String branch = PREFIX + combo;
        Optional<String[]> remote;
        try {
            remote = remoteOf(ws.baseline().repo());
        } catch (IOException | RuntimeException e) {
            return Optional.of(new BranchPush(false, branch, "?", null, "could not read the baseline's remotes: " + e));
        }
        if (remote.isEmpty()) {
            return Optional.empty();
        }
        String name = remote.get()[0];
        String url = remote.get()[1];
        String shownUrl = withoutUserInfo(url);
        Set<String> credentials = credentialsIn(url);
        String commit = null;
        try {
            commit = captured.changes().headCommit();
            if (captured.changes().dirty()) {
                commit = git.run(ws.dir(), IDENTITY, List.of("commit-tree", captured.tree(), "-p", commit,
                                "-m", "harness4j: uncommitted work of run " + ws.runId()))
                        .orThrow("making a snapshot commit").out();
            }
            GitCli.Result r = git.run(ws.dir(), IDENTITY,
                    List.of("push", "--quiet", "--force", url, commit + ":refs/heads/" + branch));
            if (!r.ok()) {
                String err = scrub("git push to " + name + " (" + shownUrl + ") exited with " + r.exitCode() + ": "
                        + r.stderr().strip(), url, shownUrl, credentials);
                log.warn("run {}: {}", ws.runId(), err);
                return Optional.of(new BranchPush(false, branch, name, commit, err));
            }
            log.debug("run {}: pushed {} to {} {}", ws.runId(), commit, name, branch);
            return Optional.of(new BranchPush(true, branch, name, commit, null));
        } catch (RuntimeException e) {
            String err = scrub(String.valueOf(e.getMessage()), url, shownUrl, credentials);
            log.warn("run {}: pushing {} to {} failed: {} ({})", ws.runId(), branch, name, err, e.getClass().getName());
            return Optional.of(new BranchPush(false, branch, name, commit, err));
        }
    }

    /**
     * The credentials the baseline's push remote URL carries (the password of its user-info, or a
     * token given as an http(s) user name), so a run can treat them as secrets; empty when none.
     */
    public static Set<String> remoteCredentials(Path baselineRepo) {
        try {
            return remoteOf(baselineRepo).map(r -> credentialsIn(r[1])).orElse(Set.of());
        } catch (IOException | RuntimeException e) {
            return Set.of();
        }
    }

    /**
     * The URL without user-info: {@code https://user:token@host/x} → {@code https://host/x},
     * scp-like {@code user:pass@host:x} → {@code host:x}; local paths stay as they are.
     */
    static String withoutUserInfo(String url) {
        Matcher m = SCHEME_USERINFO.matcher(url);
        if (m.matches()) {
            return m.group(1) + m.group(3);
        }
        m = SCP_USERINFO.matcher(url);
        if (m.matches()) {
            return m.group(2);
        }
        return url;
    }

    /** The secret parts of a URL's user-info: the password, or a lone http(s) user name (a token). */
    static Set<String> credentialsIn(String url) {
        String info = null;
        boolean http = false;
        Matcher m = SCHEME_USERINFO.matcher(url);
        if (m.matches()) {
            info = m.group(2);
            http = m.group(1).toLowerCase(java.util.Locale.ROOT).startsWith("http");
        } else if ((m = SCP_USERINFO.matcher(url)).matches()) {
            info = m.group(1);
        }
        if (info == null) {
            return Set.of();
        }
        info = info.substring(0, info.length() - 1); // the '@'
        int colon = info.indexOf(':');
        Set<String> out = new java.util.LinkedHashSet<>();
        if (colon >= 0) {
            addWithDecoded(out, info.substring(colon + 1));
        } else if (http) {
            addWithDecoded(out, info);
        }
        return Set.copyOf(out);
    }

    private static void addWithDecoded(Set<String> out, String value) {
        if (value.isEmpty()) {
            return;
        }
        out.add(value);
        try {
            out.add(java.net.URLDecoder.decode(value, java.nio.charset.StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            // not percent-encoded
        }
    }

    private static String scrub(String text, String url, String shownUrl, Set<String> credentials) {
        String out = text.replace(url, shownUrl);
        for (String c : credentials) {
            out = out.replace(c, dev.harness4j.api.Secret.REDACTED);
        }
        return out;
    }

    /** The remote to push to: origin, else the first; {name, url} with a relative local path made absolute. */
    private static Optional<String[]> remoteOf(Path repo) throws IOException {
        try (Repository r = new FileRepositoryBuilder().findGitDir(repo.toFile()).setMustExist(true).build()) {
            Config cfg = r.getConfig();
            Set<String> names = cfg.getSubsections("remote");
            List<String> ordered = new ArrayList<>();
            if (names.contains("origin")) {
                ordered.add("origin");
            }
            names.stream().sorted().filter(n -> !n.equals("origin")).forEach(ordered::add);
            for (String n : ordered) {
                String url = cfg.getString("remote", n, "pushurl");
                if (url == null) {
                    url = cfg.getString("remote", n, "url");
                }
                if (url != null && !url.isBlank()) {
                    return Optional.of(new String[] {n, absolutise(repo, url)});
                }
            }
            return Optional.empty();
        }
    }

    private static String absolutise(Path repo, String url) {
        boolean hasScheme = url.contains("://");
        boolean scpLike = url.matches("^[^/]+:.*");
        if (hasScheme || scpLike || Path.of(url).isAbsolute()) {
            return url;
        }
        return repo.resolve(url).normalize().toString();
    }
}
