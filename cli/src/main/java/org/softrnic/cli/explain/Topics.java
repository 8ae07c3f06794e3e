package org.softrnic.cli.explain;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.softrnic.verbs.AsyncEvent;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.WcStatus;
import org.softrnic.wire.Opcode;

/** The topics explain knows by name, for shell completion: what the other commands print. */
final class Topics implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
        List<String> t = new ArrayList<>();
        for (QpState s : QpState.values()) t.add(s.name());
        for (WcStatus s : WcStatus.values()) t.add(s.ibvName());
        for (AsyncEvent.Type e : AsyncEvent.Type.values()) t.add(e.ibvName());
        t.addAll(AttrText.names());
        t.addAll(WireText.names());
        t.addAll(CmText.names());
        t.addAll(GlossaryText.names());
        for (Opcode o : Opcode.values()) t.add(o.name());
        t.addAll(List.of("ack", "rnr", "nak"));
        return t.iterator();
    }
}
