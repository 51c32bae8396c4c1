"""A call run in a thread of its own while the caller goes on (no imports
beyond threading: asys.fleet's start uses it before distributed is
imported)."""
import threading


def in_thread(name, fn, *args):
    """fn(*args) in a thread called `name`; returns a function that waits
    for its result (and raises, in the caller's thread, what it raised).

    Not a daemon thread: the interpreter waits for it at exit. Some calls
    run here are the engine's (text ranks, the summary order) with the GIL
    released, and a daemon thread that leaves C++ while the interpreter
    finalizes (a run that failed in another rule, with these still going)
    is ended by CPython inside pybind11's GIL guard, whose destructor may
    not throw: the process aborted ("terminate called without an active
    exception", status 134) instead of printing its one-line error."""
    box = {}

    def call():
        try:
            box["result"] = fn(*args)
        except BaseException as e:  # noqa: BLE001 - raised again in the caller's thread
            box["error"] = e

    thread = threading.Thread(target=call, name=name)
    thread.start()

    def wait():
        thread.join()
        if "error" in box:
            raise box["error"]
        return box["result"]

    return wait
