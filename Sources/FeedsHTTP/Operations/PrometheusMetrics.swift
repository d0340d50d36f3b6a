import Metrics
import Prometheus

/// The process's one metrics registry; swift-metrics can be bootstrapped once per process.
enum PrometheusMetrics {
    static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()

    /// The text exposition of every metric.
    static func exposition() -> [UInt8] {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }
}
