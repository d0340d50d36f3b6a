import Synchronization

/// A value the workers of a phase share, behind a lock (a class, so that task closures can hold it).
final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result { mutex.withLock { body(&$0) } }
}

/// Hands out 0, 1, 2, … to the workers of a phase.
final class Counter: Sendable {
    private let value = Atomic(0)

    func next() -> Int { value.wrappingAdd(1, ordering: .relaxed).oldValue }
}
