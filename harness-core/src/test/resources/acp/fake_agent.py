# A scripted ACP agent for AcpClientTest: newline-delimited JSON-RPC 2.0 on stdio.
# Its mode (argv[1]) says how it behaves; it records what the client sent in argv[2].
import json, sys, time

mode, record = sys.argv[1], sys.argv[2]
log = open(record, "a")

def send(m):
    sys.stdout.write(json.dumps(m) + "\n")
    sys.stdout.flush()

if mode == "garbage":
    sys.stdout.write("this is not json-rpc\n")
    sys.stdout.flush()
    time.sleep(600)

for line in sys.stdin:
    log.write(line)
    log.flush()
    m = json.loads(line)
    method, mid = m.get("method"), m.get("id")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": mid, "result": {"protocolVersion": 1, "agentCapabilities": {}}})
        if mode == "dies":
            sys.exit(3)
    elif method == "session/new":
        if mode == "refuses":
            send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32000, "message": "Authentication required"}})
            continue
        send({"jsonrpc": "2.0", "id": mid, "result": {"sessionId": "s-1"}})
    elif method == "session/prompt":
        for path in ("inside.txt", "/etc/outside.txt"):
            send({"jsonrpc": "2.0", "id": "perm-" + path, "method": "session/request_permission", "params": {
                "sessionId": "s-1", "toolCall": {"toolCallId": "t1", "locations": [{"path": path}]},
                "options": [{"optionId": "yes", "name": "Allow", "kind": "allow_once"},
                            {"optionId": "no", "name": "Reject", "kind": "reject_once"}]}})
        send({"jsonrpc": "2.0", "id": 77, "method": "fs/read_text_file", "params": {"path": "x"}})
        send({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s-1", "update": {
            "sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "done"}}}})
        if mode == "waits-for-cancel":
            continue
        send({"jsonrpc": "2.0", "id": mid, "result": {"stopReason": "end_turn"}})
        if mode == "lingers":
            time.sleep(600)
    elif method == "session/cancel":
        send({"jsonrpc": "2.0", "id": 3, "result": {"stopReason": "cancelled"}})
