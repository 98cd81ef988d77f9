import Logging
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// An MQTT client that stays connected to one broker, delivers the messages of its subscriptions in batches
/// and acknowledges each QoS 1 message only after the handler that received it has returned.
///
/// `run(subscriptions:onMessages:)` connects, subscribes and delivers until its task is cancelled or
/// `disconnect()` is called, reconnecting with backoff after any failure. With a persistent session (the
/// default, `cleanSession: false`) the broker keeps unacknowledged QoS 1 messages and redelivers them on the
/// next connection, so a process killed mid-batch loses nothing the broker held (duplicates are possible).
/// `publish` can be called concurrently with `run` while connected.
public final class MQTTClient: Sendable {
    /// The handler of delivered messages: a batch in arrival order. Return only once the batch is committed; throw
    /// when it could not be, and the batch is not acknowledged (the connection is closed, so the broker sends it
    /// again on the next one).
    public typealias MessageHandler = @Sendable ([MQTTMessage]) async throws -> Void

    private struct State {
        var connectionState = MQTTConnectionState.disconnected(reason: "not started")
        var lastDisconnectReason: String?
        var statistics = MQTTClientStatistics()
        var connection: MQTTConnectionHandle?
        /// The inbox of the current connection.
        var inbox: MQTTInbox?
        var lastPacketID: UInt16 = 0
        var pendingAcks: [UInt16: CheckedContinuation<Void, any Error>] = [:]
        var isRunning = false
        var isStopRequested = false
        var lastProblemLogged: ContinuousClock.Instant?
        var problemsNotLogged = 0
        var report: MQTTBrokerReport
        /// Whether a broker ever accepted MQTT 5 from this client.
        var acceptedMQTT5 = false
    }

    /// The outcome of one connection.
    private struct ConnectionOutcome {
        /// The broker accepted the CONNECT (so the backoff starts over).
        var accepted: Bool
        var reason: String
        /// Connect again without waiting (the client fell back to MQTT 3.1.1).
        var retryAtOnce = false
    }

    public let configuration: MQTTConfiguration
    /// How long an MQTT 5 CONNECT that may fall back to 3.1.1 waits for its CONNACK, seconds (at most
    /// `connectTimeoutSeconds`), until a broker has accepted MQTT 5 once.
    static let fallBackConnAckSeconds = 5
    private let logger: Logger
    private let eventLoopGroup: any EventLoopGroup
    private let state: Mutex<State>

    /// - Parameters:
    ///   - logger: Where connection events go; connection failures are logged at most once a minute at
    ///     warning level (the rest at debug).
    ///   - eventLoopGroup: NIO's event loops; the process-wide singleton by default.
    public init(
        configuration: MQTTConfiguration, logger: Logger = Logger(label: "indoor.mqtt"),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.configuration = configuration
        self.logger = logger
        self.eventLoopGroup = eventLoopGroup
        state = Mutex(State(report: MQTTBrokerReport(protocolVersion: configuration.protocolVersion)))
    }

    /// The connection's state now, for health checks.
    public var connectionState: MQTTConnectionState { state.withLock { $0.connectionState } }

    /// Why the last connection ended or failed (nil before any did): unlike `connectionState`, this stays
    /// after the client has connected again, for logs and health pages.
    public var lastDisconnectReason: String? { state.withLock { $0.lastDisconnectReason } }

    /// Counters since the client was made.
    public var statistics: MQTTClientStatistics { state.withLock { $0.statistics } }

    /// The protocol version in use, the broker's limits and its last reason codes (``MQTTBrokerReport``).
    public var brokerReport: MQTTBrokerReport { state.withLock { $0.report } }

    // MARK: - Running

    /// Connects, subscribes and hands incoming messages to `onMessages` until the task is cancelled or
    /// `disconnect()` is called; reconnects (and resubscribes) with backoff after a lost or failed connection.
    ///
    /// Messages come in batches of at most `maximumBatchSize`, in arrival order, one handler call at a time.
    /// The QoS 1 messages of a batch are acknowledged once the handler call returns, unless the task was
    /// cancelled by then or the handler threw (the batch may not have been committed: the connection is closed and
    /// the broker redelivers it on the next; the error is the reason logged). While the handler
    /// is busy, up to `maximumBufferedMessages` further messages are held; beyond that the socket is not read.
    /// Messages held when a connection is lost are dropped (QoS 1 ones are redelivered by the broker).
    /// A QoS 1 `publish` awaited inside the handler can wait until the connection is lost when the inbox is
    /// full (its PUBACK is behind the messages not read): publish with QoS 0 there, or from another task.
    ///
    /// - Parameter subscriptions: Topic filters to subscribe to on every connection; may be empty (publish only).
    /// - Throws: `MQTTClientError` only for what retrying cannot fix: a second concurrent `run`, or an
    ///   unreadable TLS CA file. Connection failures are retried and shown in `connectionState`.
    public func run(subscriptions: [MQTTSubscription], onMessages: @escaping MessageHandler) async throws {
        let sslContext = try makeSSLContext()
        let alreadyRunning = state.withLock { state in
            defer { state.isRunning = true }
            return state.isRunning
        }
        if alreadyRunning { throw MQTTClientError("MQTTClient.run is already running; call it once at a time") }
        defer {
            state.withLock { state in
                state.isRunning = false
                state.isStopRequested = false
                state.connectionState = .disconnected(reason: "stopped")
            }
        }
        var random = SystemRandomNumberGenerator()
        var attempt = 0
        while !isStopping {
            setConnectionState(.connecting)
            let outcome = await runConnection(
                subscriptions: subscriptions, handler: onMessages, sslContext: sslContext)
            if isStopping { break }
            state.withLock { state in
                state.connectionState = .disconnected(reason: outcome.reason)
                state.lastDisconnectReason = outcome.reason
            }
            if outcome.retryAtOnce {
                attempt = 0
                state.withLock { $0.statistics.reconnectAttempts += 1 }
                continue
            }
            attempt = outcome.accepted ? 0 : attempt + 1
            let delay = configuration.reconnectBackoff.delay(attempt: max(0, attempt - 1), using: &random)
            logConnectionProblem(outcome.reason, retryIn: delay)
            let deadline = ContinuousClock.now + delay
            while !isStopping, ContinuousClock.now < deadline {
                try? await Task.sleep(for: min(.milliseconds(100), deadline - ContinuousClock.now))
            }
            state.withLock { $0.statistics.reconnectAttempts += 1 }
        }
    }

    /// Stops cleanly and makes `run` return: a handler call under way is let finish and its batch acknowledged (so
    /// that a committed batch is not sent again on the next connection), messages not yet handed to the handler are
    /// dropped (a persistent session gets them again), then DISCONNECT is sent and the connection closed. A handler
    /// that takes longer than `connectTimeoutSeconds` is not waited for (its batch is then not acknowledged).
    public func disconnect() async {
        let (connection, inbox) = state.withLock { state in
            state.isStopRequested = state.isRunning
            return (state.connection, state.inbox)
        }
        guard let connection else { return }
        if let inbox {
            inbox.close()
            let deadline = ContinuousClock.now + .seconds(configuration.connectTimeoutSeconds)
            while !inbox.isConsumerFinished, ContinuousClock.now < deadline, !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
        try? await connection.send(.disconnect(MQTTDisconnect()))
        connection.end(reason: "disconnected by the application")
    }

    private var isStopping: Bool {
        Task.isCancelled || state.withLock { $0.isStopRequested }
    }

    private func setConnectionState(_ connectionState: MQTTConnectionState) {
        state.withLock { $0.connectionState = connectionState }
    }

    private func logConnectionProblem(_ reason: String, retryIn delay: Duration) {
        let now = ContinuousClock.now
        let notLogged: Int? = state.withLock { state in
            if let last = state.lastProblemLogged, now - last < .seconds(60) {
                state.problemsNotLogged += 1
                return nil
            }
            defer { state.problemsNotLogged = 0 }
            state.lastProblemLogged = now
            return state.problemsNotLogged
        }
        let broker = "\(configuration.host):\(configuration.port)"
        let delay = "\(Int(delay / .milliseconds(1))) ms"
        if let notLogged {
            logger.warning(
                "MQTT connection to \(broker) lost or failed: \(reason); retrying in \(delay)",
                metadata: ["failures_not_logged": "\(notLogged)"])
        } else {
            logger.debug("MQTT connection to \(broker) lost or failed: \(reason); retrying in \(delay)")
        }
    }

    // MARK: - One connection

    private func runConnection(
        subscriptions: [MQTTSubscription], handler: @escaping MessageHandler, sslContext: NIOSSLContext?
    ) async -> ConnectionOutcome {
        let version = state.withLock { $0.report.protocolVersion }
        let asyncChannel: NIOAsyncChannel<MQTTPacket, Never>
        do {
            asyncChannel = try await connectChannel(sslContext: sslContext, version: version)
        } catch {
            return ConnectionOutcome(
                accepted: false,
                reason: "could not connect to \(configuration.host):\(configuration.port): \(error)")
        }
        let connection = MQTTConnectionHandle(channel: asyncChannel.channel, version: version)
        do {
            return try await asyncChannel.executeThenClose { inbound, _ in
                var iterator = inbound.makeAsyncIterator()
                return await self.session(
                    connection: connection, iterator: &iterator, subscriptions: subscriptions, handler: handler)
            }
        } catch {
            return ConnectionOutcome(accepted: false, reason: connection.endReason ?? "\(error)")
        }
    }

    private func connectChannel(sslContext: NIOSSLContext?, version: MQTTProtocolVersion) async throws
        -> NIOAsyncChannel<MQTTPacket, Never>
    {
        let decoder = MQTTPacketDecoder(version: version, maximumPacketSize: configuration.maximumPacketSize)
        let serverName = configuration.tls?.serverName ?? configuration.host
        let isIPAddress = (try? SocketAddress(ipAddress: serverName, port: 0)) != nil
        return try await ClientBootstrap(group: eventLoopGroup)
            .connectTimeout(.seconds(Int64(configuration.connectTimeoutSeconds)))
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .connect(host: configuration.host, port: configuration.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let sslContext {
                        try pipeline.addHandler(
                            NIOSSLClientHandler(context: sslContext, serverHostname: isIPAddress ? nil : serverName))
                    }
                    try pipeline.addHandler(ByteToMessageHandler(MQTTFrameDecoder(decoder: decoder)))
                    try pipeline.addHandler(MessageToByteHandler(MQTTFrameEncoder(version: version)))
                    return try NIOAsyncChannel<MQTTPacket, Never>(
                        wrappingChannelSynchronously: channel,
                        configuration: .init(backPressureStrategy: .init(lowWatermark: 64, highWatermark: 256)))
                }
            }
    }

    private func makeConnect(version: MQTTProtocolVersion) -> MQTTConnect {
        var properties = MQTTProperties()
        if version == .v5 && !configuration.cleanSession {
            properties.sessionExpiryIntervalSeconds = configuration.sessionExpirySeconds
        }
        return MQTTConnect(
            protocolVersion: version, clientID: configuration.clientID,
            keepAliveSeconds: configuration.keepAliveSeconds, cleanSession: configuration.cleanSession,
            username: configuration.username, password: configuration.password.map { Array($0.utf8) },
            will: configuration.will, properties: properties)
    }

    /// CONNECT, CONNACK, SUBSCRIBE, then the reader, keep-alive and delivery loops until the connection ends.
    private func session(
        connection: MQTTConnectionHandle, iterator: inout NIOAsyncChannelInboundStream<MQTTPacket>.AsyncIterator,
        subscriptions: [MQTTSubscription], handler: @escaping MessageHandler
    ) async -> ConnectionOutcome {
        let timeoutSeconds = configuration.connectTimeoutSeconds
        let handshakeTimeout = connection.channel.eventLoop.scheduleTask(in: .seconds(Int64(timeoutSeconds))) {
            connection.end(reason: "no CONNACK or SUBACK from the broker within \(timeoutSeconds) s")
        }
        var accepted = false
        var failure: String?
        let version = connection.version
        // MQTT 5 refused by a broker that only speaks 3.1.1: a CONNACK saying so, or none at all. A broker that may fall
        // back and never accepted MQTT 5 is given a shorter time for its CONNACK (amqtt keeps the connection silent).
        var refusesVersion = false
        let fallBackSeconds = min(timeoutSeconds, Self.fallBackConnAckSeconds)
        let mayFallBack =
            version == .v5 && configuration.allowsFallBack && !state.withLock { $0.acceptedMQTT5 }
        let connAckTimeout =
            mayFallBack
            ? connection.channel.eventLoop.scheduleTask(in: .seconds(Int64(fallBackSeconds))) {
                connection.end(reason: "no CONNACK to MQTT 5 within \(fallBackSeconds) s")
            } : nil
        do {
            try await connection.send(.connect(makeConnect(version: version)))
            refusesVersion = version == .v5
            let firstPacket = try await iterator.next()
            connAckTimeout?.cancel()
            guard let first = firstPacket else {
                throw MQTTClientError("the broker closed the connection before sending CONNACK")
            }
            refusesVersion = false
            guard case .connAck(let ack) = first else {
                throw MQTTClientError("the broker sent \(first.type) where CONNACK was expected")
            }
            recordConnAck(ack, version: version)
            guard ack.isAccepted else {
                refusesVersion = version == .v5 && ack.refusesProtocolVersion
                throw MQTTClientError(
                    "the broker refused the connection: " + ack.reasonDescription(version: version))
            }
            accepted = true
            try await connected(
                connection: connection, ack: ack, iterator: &iterator, subscriptions: subscriptions,
                handler: handler, handshakeTimeout: handshakeTimeout)
        } catch let error as ChannelError where error == .ioOnClosedChannel || error == .alreadyClosed {
            // A write found the channel closed: the cause (a TLS handshake failure, a reset) is on the inbound side.
            failure = "\(error)"
            do {
                while try await iterator.next() != nil {}
            } catch {
                failure = "\(error)"
            }
        } catch {
            failure = "\(error)"
        }
        handshakeTimeout.cancel()
        connAckTimeout?.cancel()
        if isStopping {
            try? await connection.send(.disconnect(MQTTDisconnect()))
            connection.end(reason: "stopped")
        }
        let reason = connection.endReason ?? failure ?? "the broker closed the connection"
        connection.closeSlots(
            MQTTClientError(.notConnected, "the connection to the broker was lost (\(reason))"))
        let fallBack = refusesVersion && configuration.allowsFallBack && !isStopping
        let pending = state.withLock { state in
            if state.connection === connection {
                state.connection = nil
                state.connectionState = .disconnected(reason: reason)
            }
            if fallBack {
                state.report.protocolVersion = .v3_1_1
                state.report.fallBackReason = "the broker refused MQTT 5: \(reason)"
                state.report.limits = nil
            }
            defer { state.pendingAcks.removeAll() }
            return state.pendingAcks
        }
        if fallBack {
            let broker = "\(configuration.host):\(configuration.port)"
            logger.warning("MQTT broker \(broker) refused MQTT 5 (\(reason)): connecting with MQTT 3.1.1 instead")
        }
        for continuation in pending.values {
            continuation.resume(
                throwing: MQTTClientError(
                    .connectionLost,
                    "the connection to the broker was lost before it acknowledged (PUBACK) the QoS 1 message; "
                        + "it may or may not have been delivered (\(reason))"))
        }
        return ConnectionOutcome(accepted: accepted, reason: reason, retryAtOnce: fallBack)
    }

    /// Keeps what a CONNACK says: its reason code, the MQTT 5 limits when accepted, the refusal when not.
    private func recordConnAck(_ ack: MQTTConnAck, version: MQTTProtocolVersion) {
        var name = ack.reasonName(version: version)
        if let text = ack.properties.reasonString { name += ": \(text)" }
        state.withLock { state in
            state.report.connAck = MQTTReason(code: ack.code, reason: name)
            if ack.isAccepted {
                state.report.connectRefusal = nil
                if version == .v5 { state.acceptedMQTT5 = true }
                state.report.limits = version == .v5 ? MQTTBrokerLimits(connAck: ack.properties) : nil
            } else if !ack.isTransientRefusal {
                state.report.connectRefusal = ack.reasonDescription(version: version)
            }
        }
    }

    private func connected(
        connection: MQTTConnectionHandle, ack: MQTTConnAck,
        iterator: inout NIOAsyncChannelInboundStream<MQTTPacket>.AsyncIterator, subscriptions: [MQTTSubscription],
        handler: @escaping MessageHandler, handshakeTimeout: Scheduled<Void>
    ) async throws {
        let keepAliveSeconds = ack.properties.serverKeepAliveSeconds ?? configuration.keepAliveSeconds
        state.withLock { state in
            state.statistics.connectionsEstablished += 1
            state.connection = connection
            state.lastProblemLogged = nil
        }
        logger.info(
            "MQTT connected to \(configuration.host):\(configuration.port)",
            metadata: [
                "client_id": "\(configuration.clientID)", "session_present": "\(ack.sessionPresent)",
                "protocol": "\(connection.version)",
            ])
        var subscribePacketID: UInt16?
        if subscriptions.isEmpty {
            handshakeTimeout.cancel()
            setConnectionState(.connected)
        } else {
            let packetID = allocatePacketID()
            subscribePacketID = packetID
            try await connection.send(
                .subscribe(
                    MQTTSubscribe(
                        packetID: packetID,
                        subscriptions: subscriptions.map { .init(topicFilter: $0.topicFilter, qos: $0.qos) })))
        }
        let inbox = MQTTInbox(capacity: configuration.maximumBufferedMessages)
        state.withLock { $0.inbox = inbox }
        defer { state.withLock { state in if state.inbox === inbox { state.inbox = nil } } }
        let batchSize = configuration.maximumBatchSize
        try await withThrowingTaskGroup(of: Void.self) { deliveryGroup in
            deliveryGroup.addTask {
                await self.deliver(inbox: inbox, connection: connection, batchSize: batchSize, handler: handler)
            }
            let readResult: Result<Void, any Error> = await withTaskGroup(of: Void.self) { keepAliveGroup in
                keepAliveGroup.addTask { await self.keepAlive(connection: connection, seconds: keepAliveSeconds) }
                defer { keepAliveGroup.cancelAll() }
                do {
                    try await self.read(
                        iterator: &iterator, connection: connection, inbox: inbox,
                        subscribe: subscribePacketID.map { ($0, subscriptions) },
                        handshakeTimeout: handshakeTimeout)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            // Stop taking new messages, but let a running handler call finish (unless the task is cancelled).
            inbox.close()
            try await deliveryGroup.waitForAll()
            try readResult.get()
        }
    }

    // MARK: - Loops of a connection

    private func read(
        iterator: inout NIOAsyncChannelInboundStream<MQTTPacket>.AsyncIterator, connection: MQTTConnectionHandle,
        inbox: MQTTInbox, subscribe: (packetID: UInt16, subscriptions: [MQTTSubscription])?,
        handshakeTimeout: Scheduled<Void>
    ) async throws {
        while let packet = try await iterator.next() {
            switch packet {
            case .publish(let publish):
                state.withLock { $0.statistics.messagesReceived += 1 }
                if publish.qos == .exactlyOnce {
                    throw MQTTClientError(
                        "the broker sent a QoS 2 message on \"\(publish.topic)\"; this client subscribes with QoS 0 or 1"
                    )
                }
                let entry = MQTTInbox.Entry(
                    message: MQTTMessage(
                        topic: publish.topic, payload: publish.payload, qos: publish.qos, retain: publish.retain,
                        duplicate: publish.duplicate,
                        messageExpirySeconds: publish.properties.messageExpiryIntervalSeconds),
                    packetID: publish.qos == .atLeastOnce ? publish.packetID : nil)
                let isFull = inbox.count >= inbox.capacity
                if isFull {
                    connection.setReaderPaused(true)
                    logger.debug(
                        "MQTT inbox full (\(inbox.capacity) messages): not reading until the handler catches up")
                }
                guard await inbox.append(entry) else { return }
                if isFull { connection.setReaderPaused(false) }
            case .pubAck(let ack):
                completePublish(ack)
            case .subAck(let ack):
                guard let subscribe, ack.packetID == subscribe.packetID else { continue }
                for (subscription, code) in zip(subscribe.subscriptions, ack.codes) where code >= 0x80 {
                    let reason = connection.version == .v5 ? MQTTReasonCode.name(code) : "failure"
                    logger.error(
                        "MQTT broker refused the subscription to \"\(subscription.topicFilter)\": \(reason) (0x\(String(code, radix: 16)))"
                    )
                }
                handshakeTimeout.cancel()
                setConnectionState(.connected)
            case .pingResp:
                connection.pingAnswered()
            case .disconnect(let disconnect):
                var name = MQTTReasonCode.name(disconnect.reasonCode)
                if let text = disconnect.properties.reasonString { name += ": \(text)" }
                let brokerReason = MQTTReason(code: disconnect.reasonCode, reason: name)
                state.withLock { $0.report.brokerDisconnect = brokerReason }
                throw MQTTClientError("the broker disconnected: \(brokerReason)")
            case .unsubAck:
                continue
            case .connect, .connAck, .subscribe, .unsubscribe, .pingReq:
                throw MQTTClientError("the broker sent an unexpected \(packet.type)")
            }
        }
    }

    /// Sends PINGREQ every `seconds`; ends the connection when the previous one is still unanswered.
    private func keepAlive(connection: MQTTConnectionHandle, seconds: UInt16) async {
        guard seconds > 0 else { return }
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: .seconds(Int(seconds)))
            } catch {
                return
            }
            if connection.isPingOverdue {
                connection.end(reason: "no PINGRESP within the keep-alive of \(seconds) s: the connection is dead")
                return
            }
            connection.pingSent()
            do {
                try await connection.send(.pingReq)
            } catch {
                return
            }
        }
    }

    /// Hands batches to the handler and acknowledges their QoS 1 messages once it has returned.
    private func deliver(
        inbox: MQTTInbox, connection: MQTTConnectionHandle, batchSize: Int, handler: MessageHandler
    ) async {
        defer { inbox.finishConsumer() }
        while let batch = await inbox.nextBatch(maximumCount: batchSize) {
            state.withLock { $0.statistics.messagesDelivered += batch.count }
            do {
                try await handler(batch.map(\.message))
            } catch {
                // Not committed: no acknowledgement, and a new connection, on which the broker sends the batch again
                // (it redelivers unacknowledged messages only on a new connection).
                connection.end(reason: "the application could not take a batch of \(batch.count) messages: \(error)")
                return
            }
            // Cancelled while the handler ran: it may not have committed the batch, so the broker keeps it.
            if Task.isCancelled { return }
            let acks = batch.compactMap(\.packetID).map { MQTTPacket.pubAck(MQTTPubAck(packetID: $0)) }
            if acks.isEmpty { continue }
            do {
                try await connection.send(contentsOf: acks)
            } catch {
                return
            }
            state.withLock { $0.statistics.messagesAcknowledged += acks.count }
        }
    }

    // MARK: - Publishing

    /// Publishes a message. QoS 0 returns once written; QoS 1 returns once the broker has acknowledged it
    /// (PUBACK).
    ///
    /// On an MQTT 5 connection the broker's limits (``MQTTBrokerLimits``) are kept: a message whose PUBLISH is larger
    /// than its Maximum Packet Size, or above its Maximum QoS, or retained where it keeps no retained messages, is not
    /// sent (code `brokerLimit`, counted in `statistics.messagesRefusedForLimits`); a QoS 1 publish waits while as
    /// many as its Receive Maximum are unacknowledged. No topic alias is ever sent.
    ///
    /// `messageExpirySeconds` is sent as the MQTT 5 Message Expiry Interval: the broker drops the message (a retained
    /// one too) that many seconds after it got it. Not sent under MQTT 3.1.1, which has no such property.
    ///
    /// - Throws: `MQTTClientError` when not connected (`notConnected`), for QoS 2, when a broker limit forbids the
    ///   message (`brokerLimit`), when the broker refuses it (`refusedByBroker`, MQTT 5), or when the connection is
    ///   lost before the acknowledgement (`connectionLost`: the message may or may not have been delivered);
    ///   `CancellationError` if the task is cancelled while waiting.
    public func publish(
        topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false,
        messageExpirySeconds: UInt32? = nil
    ) async throws {
        guard qos != .exactlyOnce else { throw MQTTClientError("QoS 2 is not supported; publish with QoS 0 or 1") }
        let (connection, connectionState, limits) = state.withLock {
            ($0.connection, $0.connectionState, $0.report.limits)
        }
        guard let connection else {
            throw MQTTClientError(
                .notConnected, "cannot publish to \"\(topic)\": not connected to the broker (\(connectionState))")
        }
        let limitsInUse = connection.version == .v5 ? limits : nil
        var properties = MQTTProperties()
        if connection.version == .v5, let messageExpirySeconds {
            properties.set(MQTTProperty.messageExpiryInterval, .fourByteInteger(messageExpirySeconds))
        }
        if let limitsInUse {
            try checkLimits(
                limitsInUse, topic: topic, payload: payload, qos: qos, retain: retain, properties: properties)
        }
        if qos == .atMostOnce {
            do {
                try await connection.send(
                    .publish(MQTTPublish(topic: topic, payload: payload, retain: retain, properties: properties)))
            } catch {
                throw MQTTClientError(
                    .connectionLost, "cannot publish to \"\(topic)\": the connection was lost (\(error))")
            }
            state.withLock { $0.statistics.messagesPublished += 1 }
            return
        }
        if let limitsInUse {
            try await connection.acquirePublishSlot(limit: limitsInUse.receiveMaximum)
        }
        defer { if let limitsInUse { connection.releasePublishSlot(limit: limitsInUse.receiveMaximum) } }
        let packetID = allocatePacketID()
        let packet = MQTTPacket.publish(
            MQTTPublish(
                topic: topic, payload: payload, qos: qos, retain: retain, packetID: packetID, properties: properties))
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let registered = state.withLock { state in
                    guard state.connection === connection, !Task.isCancelled else { return false }
                    state.pendingAcks[packetID] = continuation
                    state.statistics.largestInFlightPublishes = max(
                        state.statistics.largestInFlightPublishes, state.pendingAcks.count)
                    return true
                }
                guard registered else {
                    continuation.resume(
                        throwing: Task.isCancelled
                            ? CancellationError()
                            : MQTTClientError(
                                .notConnected, "cannot publish to \"\(topic)\": the connection was lost"))
                    return
                }
                connection.channel.writeAndFlush(packet).whenFailure { error in
                    self.failPublish(
                        packetID,
                        MQTTClientError(
                            .connectionLost,
                            "cannot publish to \"\(topic)\": the connection was lost before the broker "
                                + "acknowledged (PUBACK) it (\(error))"))
                }
            }
        } onCancel: {
            self.failPublish(packetID, CancellationError())
        }
        state.withLock { $0.statistics.messagesPublished += 1 }
    }

    /// Throws (code `brokerLimit`, counted) when the broker's `limits` forbid the message.
    private func checkLimits(
        _ limits: MQTTBrokerLimits, topic: String, payload: [UInt8], qos: MQTTQoS, retain: Bool,
        properties: MQTTProperties
    ) throws {
        var problem: String?
        if Int(qos.rawValue) > limits.maximumQoS {
            problem = "the broker takes at most QoS \(limits.maximumQoS) (its Maximum QoS); this message is \(qos)"
        } else if retain && !limits.retainAvailable {
            problem = "the broker keeps no retained messages (Retain Available is 0); this message is retained"
        } else if let maximum = limits.maximumPacketSizeBytes {
            // The packet identifier's value does not change the size.
            let sized = MQTTPublish(
                topic: topic, payload: payload, qos: qos, retain: retain, packetID: qos == .atMostOnce ? nil : 1,
                properties: properties)
            let size = try MQTTPacket.publish(sized).encode(version: .v5).count
            if size > maximum {
                problem =
                    "its PUBLISH packet is \(size) bytes and the broker takes at most \(maximum) (its Maximum "
                    + "Packet Size)"
            }
        }
        guard let problem else { return }
        state.withLock { $0.statistics.messagesRefusedForLimits += 1 }
        throw MQTTClientError(.brokerLimit, "not publishing to \"\(topic)\": \(problem)")
    }

    private func failPublish(_ packetID: UInt16, _ error: any Error) {
        state.withLock { $0.pendingAcks.removeValue(forKey: packetID) }?.resume(throwing: error)
    }

    private func completePublish(_ ack: MQTTPubAck) {
        guard let continuation = state.withLock({ $0.pendingAcks.removeValue(forKey: ack.packetID) }) else { return }
        if ack.reasonCode >= 0x80 {
            continuation.resume(
                throwing: MQTTClientError(
                    .refusedByBroker,
                    "the broker refused the message: \(MQTTReasonCode.name(ack.reasonCode)) "
                        + "(0x\(String(ack.reasonCode, radix: 16)))"))
        } else {
            continuation.resume()
        }
    }

    /// A packet identifier not used by any publish awaiting its PUBACK (1 to 65,535, in turn).
    private func allocatePacketID() -> UInt16 {
        state.withLock { state in
            repeat {
                state.lastPacketID = state.lastPacketID == UInt16.max ? 1 : state.lastPacketID + 1
            } while state.pendingAcks[state.lastPacketID] != nil && state.pendingAcks.count < Int(UInt16.max) - 1
            return state.lastPacketID
        }
    }

    private func makeSSLContext() throws -> NIOSSLContext? {
        guard let tls = configuration.tls else { return nil }
        var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
        if let path = tls.caFilePath {
            do {
                tlsConfiguration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(path))
            } catch {
                throw MQTTClientError("cannot read the TLS CA file \(path): \(error)")
            }
        }
        do {
            return try NIOSSLContext(configuration: tlsConfiguration)
        } catch {
            throw MQTTClientError("cannot set up TLS: \(error)")
        }
    }
}
