/*
 * net: fio's network engine. A job sends (rw=write) or receives (rw=read) a stream over
 * TCP (v4, v6), UDP (v4, v6, multicast), a UNIX socket or vsock; a listener (listen, or a
 * UDP reader) binds port= (plus the clone's number), the other side connects to
 * hostname= (or filename=; a UNIX socket's path). pingpong=1 sends each block back, so
 * that an I/O's latency is a round trip. Its messages are fio's, so either end may be
 * fio: a UDP link opens with fio's 8-byte message (in network order) and every link
 * closes with another (little-endian, as fio writes them), and without verify each datagram ends in
 * fio's sequence trailer, from which the reader counts the datagrams lost (drop_ios).
 * A receiver's read of 0 bytes (the sender closed) ends its job, as fio's.
 */
#include "engine/ioengine.h"

#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <linux/vm_sockets.h>

enum net_proto { NET_TCP, NET_TCP6, NET_UDP, NET_UDP6, NET_UNIX, NET_VSOCK };

#define LINK_MAGIC	0x6c696e6bu	/* fio's FIO_LINK_OPEN_CLOSE_MAGIC */
#define LINK_OPEN	0x98u
#define LINK_CLOSE	0x89u
#define UDP_SEQ_MAGIC	0x657375716e556563ull

struct net_opts {
	const char *hostname;
	unsigned port;
	int proto;			/* enum net_proto */
	bool listen;
	bool pingpong;
	bool nodelay;
	const char *interface;
	unsigned ttl;
	unsigned window_size;
	unsigned mss;
};

struct net_state {
	int listenfd, fd;
	bool listen, writer;
	union {
		struct sockaddr sa;
		struct sockaddr_in in;
		struct sockaddr_in6 in6;
		struct sockaddr_un un;
		struct sockaddr_vm vm;
	} addr;
	socklen_t addrlen;
	uint64_t send_seq, recv_seq;
	bool seq_off;			/* a datagram not of the sender's size: stop counting */
};

static _Thread_local char net_why[256];	/* init()'s reason, for init_hint() */

static const struct opt_enum proto_vals[] = {
	{ "tcp", NET_TCP, "TCP over IPv4" },
	{ "tcpv6", NET_TCP6, "TCP over IPv6" },
	{ "udp", NET_UDP, "UDP over IPv4 (a multicast hostname joins its group)" },
	{ "udpv6", NET_UDP6, "UDP over IPv6" },
	{ "unix", NET_UNIX, "a UNIX stream socket at hostname's (filename's) path" },
	{ "vsock", NET_VSOCK, "vsock, hostname the peer's CID" },
	{ NULL, 0, NULL },
};

static const struct opt_def net_options[] = {
	ENGINE_STR("net", struct net_opts, "hostname", hostname,
		   "host (or IP address) to connect to; a multicast group for UDP; the "
		   "filename= does as well"),
	ENGINE_UINT("net", struct net_opts, "port", port, "0", 0, 65535,
		    "TCP or UDP port; numjobs clones take the ports after it"),
	ENGINE_ENUM("net", struct net_opts, "protocol", proto, "tcp", proto_vals,
		    "protocol of the link"),
	ENGINE_BOOL("net", struct net_opts, "listen", listen, "0",
		    "wait for the connection (TCP, vsock) instead of making it"),
	ENGINE_BOOL("net", struct net_opts, "pingpong", pingpong, "0",
		    "each block comes back to its sender: latencies are round trips"),
	ENGINE_BOOL_ARG("net", struct net_opts, "nodelay", nodelay, "0",
			"TCP_NODELAY on TCP sockets"),
	ENGINE_STR("net", struct net_opts, "interface", interface,
		   "IP address of the interface for UDP multicast"),
	ENGINE_UINT("net", struct net_opts, "ttl", ttl, "1", 0, 255,
		    "time-to-live of UDP multicast datagrams"),
	ENGINE_UINT("net", struct net_opts, "window_size", window_size, "0", 0, 0,
		    "socket buffer size (SO_SNDBUF, SO_RCVBUF), 0: the kernel's"),
	ENGINE_UINT("net", struct net_opts, "mss", mss, "0", 0, 0,
		    "TCP maximum segment size (TCP_MAXSEG), 0: the kernel's"),
	{ NULL },
};

static bool is_udp(int p)
{
	return p == NET_UDP || p == NET_UDP6;
}

static bool is_tcp(int p)
{
	return p == NET_TCP || p == NET_TCP6;
}

/* Say why init() fails (init_hint() gives it), returning -err. */
static int why(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int why(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(net_why, sizeof(net_why), fmt, ap);
	va_end(ap);
	return -err;
}

static bool is_multicast(const char *host)
{
	struct in_addr a;

	return host && inet_aton(host, &a) && IN_MULTICAST(ntohl(a.s_addr));
}

/* RFC 6761's localhost names: the loopback, even where nothing resolves them. */
static bool is_localhost(const char *h)
{
	size_t n = h ? strlen(h) : 0;

	return n && (!strcasecmp(h, "localhost") ||
		     (n > 10 && !strcasecmp(h + n - 10, ".localhost")));
}

/*
 * The peer's (or a multicast group's) address: a literal, else looked up; a localhost
 * name the resolver does not know (a container without /etc/hosts) is the loopback.
 */
static int fill_addr(struct net_state *s, const struct net_opts *o, const char *host,
		     unsigned port)
{
	struct addrinfo hints = { 0 }, *res;
	int v6 = o->proto == NET_TCP6 || o->proto == NET_UDP6, ret;

	memset(&s->addr, 0, sizeof(s->addr));
	if (o->proto == NET_UNIX) {
		s->addr.un.sun_family = AF_UNIX;
		snprintf(s->addr.un.sun_path, sizeof(s->addr.un.sun_path), "%s", host);
		s->addrlen = (socklen_t)(sizeof(sa_family_t) + strlen(s->addr.un.sun_path) + 1);
		return 0;
	}
	if (o->proto == NET_VSOCK) {
		s->addr.vm.svm_family = AF_VSOCK;
		s->addr.vm.svm_port = port;
		s->addr.vm.svm_cid = host ? (unsigned)strtoul(host, NULL, 10) : VMADDR_CID_ANY;
		s->addrlen = sizeof(s->addr.vm);
		return 0;
	}
	hints.ai_family = v6 ? AF_INET6 : AF_INET;
	hints.ai_socktype = is_udp(o->proto) ? SOCK_DGRAM : SOCK_STREAM;
	ret = getaddrinfo(host, NULL, &hints, &res);
	if (ret && is_localhost(host))
		ret = getaddrinfo(v6 ? "::1" : "127.0.0.1", NULL, &hints, &res);
	if (ret) {
		snprintf(net_why, sizeof(net_why), "hostname '%s': %s", host, gai_strerror(ret));
		return -EINVAL;
	}
	memcpy(&s->addr, res->ai_addr, res->ai_addrlen);
	s->addrlen = res->ai_addrlen;
	freeaddrinfo(res);
	if (v6)
		s->addr.in6.sin6_port = htons((uint16_t)port);
	else
		s->addr.in.sin_port = htons((uint16_t)port);
	return 0;
}

static int family(int p)
{
	return p == NET_TCP6 || p == NET_UDP6 ? AF_INET6 : p == NET_UNIX ? AF_UNIX :
	       p == NET_VSOCK ? AF_VSOCK : AF_INET;
}

/* window_size and mss, as fio sets them: receive buffer for a reader, send for a writer. */
static int tune(int fd, const struct net_opts *o, bool rcv, bool snd)
{
	int v = (int)o->window_size;

	if (o->window_size && rcv && setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v)) < 0)
		return why(errno, "window_size: %s", strerror(errno));
	if (o->window_size && snd && setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v)) < 0)
		return why(errno, "window_size: %s", strerror(errno));
	v = (int)o->mss;
	if (o->mss && is_tcp(o->proto) &&
	    setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &v, sizeof(v)) < 0)
		return why(errno, "mss: %s", strerror(errno));
	return 0;
}

static int nodelay(int fd, const struct net_opts *o)
{
	int one = 1;

	if (o->nodelay && is_tcp(o->proto) &&
	    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0)
		return why(errno, "nodelay: %s", strerror(errno));
	return 0;
}

/* A listener's socket: bound to the port (a UDP reader's joined to its group), listening. */
static int setup_listen(struct net_state *s, const struct net_opts *o, const char *host,
			unsigned port)
{
	int one = 1, ret, type = is_udp(o->proto) ? SOCK_DGRAM : SOCK_STREAM;
	int fd = socket(family(o->proto), type | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return why(errno, "socket: %s", strerror(errno));
	s->listenfd = fd;
	if (o->proto != NET_UNIX && o->proto != NET_VSOCK) {
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one));
	}
	ret = tune(fd, o, true, o->pingpong);
	if (ret)
		return ret;
	if (o->proto == NET_UNIX) {
		ret = fill_addr(s, o, host, port);
		unlink(host);
	} else if (o->proto == NET_VSOCK) {
		ret = fill_addr(s, o, NULL, port);
	} else {
		ret = fill_addr(s, o, o->proto == NET_TCP6 || o->proto == NET_UDP6 ? "::" :
				      "0.0.0.0", port);
		if (!ret && host) {
			struct ip_mreq mr = { 0 };

			inet_aton(host, &mr.imr_multiaddr);
			mr.imr_interface.s_addr = htonl(INADDR_ANY);
			if (o->interface && !inet_aton(o->interface, &mr.imr_interface))
				return why(EINVAL, "interface '%s' is not an IPv4 address", o->interface);
			if (setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mr, sizeof(mr)) < 0)
				return why(errno, "joining multicast group %s: %s", host, strerror(errno));
		}
	}
	if (ret)
		return ret;
	if (bind(fd, &s->addr.sa, s->addrlen) < 0)
		return why(errno, "bind to port %u%s%s: %s", port, host ? " or path " : "",
			   host ? host : "", strerror(errno));
	if (type == SOCK_STREAM && listen(fd, 10) < 0)
		return why(errno, "listen: %s", strerror(errno));
	return 0;
}

/* fio's checks of the job's options, then the listener's socket or the peer's address. */
static int net_init(struct ioengine *e)
{
	const struct net_opts *o = e->opts;
	const struct job_desc *j = e->job;
	const char *host = o->hostname ? o->hostname :
			   j->filenames.n ? j->filenames.v[0] : NULL;
	unsigned port = o->port + j->jobnum;
	struct net_state *s = calloc(1, sizeof(*s));

	net_why[0] = '\0';
	if (!s)
		return -ENOMEM;
	e->priv = s;
	s->listenfd = s->fd = -1;
	s->listen = o->listen;
	s->writer = rw_does(j->rw, IO_WRITE);
	if (o->proto == NET_UNIX && o->port)
		return why(EINVAL, "port= is not for a UNIX socket");
	if (o->proto != NET_UNIX && !o->port)
		return why(EINVAL, "tcp, udp and vsock need port=");
	if (!is_tcp(o->proto) && o->proto != NET_VSOCK) {
		if (o->listen)
			return why(EINVAL, "listen is for TCP and vsock only");
		if (rw_does(j->rw, IO_READ) && rw_does(j->rw, IO_WRITE))
			return why(EINVAL, "a datagram or UNIX link reads or writes, not both");
		if (o->proto == NET_UNIX && !host)
			return why(EINVAL, "a UNIX socket needs its path in hostname= or "
				   "filename=");
		s->listen = rw_does(j->rw, IO_READ);
	}
	if (s->listen) {
		if (host && o->proto != NET_UNIX && !(is_udp(o->proto) && is_multicast(host)))
			return why(EINVAL, "hostname '%s' is for the side that connects (a listener "
				   "takes only a UDP multicast group)", host);
		return setup_listen(s, o, host, port);
	}
	if (!host)
		return why(EINVAL, "no hostname= to connect to (did the reader forget "
			   "listen?)");
	return fill_addr(s, o, host, port);
}

static const char *net_hint(int err)
{
	(void)err;
	return net_why[0] ? net_why : NULL;
}

/* Wait for fd to be ready, a stop ending the wait. 1 ready, 0 stopped, -errno. */
static int wait_fd(struct ioengine *e, int fd, short events)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = events };
		int n = poll(&p, 1, 100);

		if (n > 0)
			return 1;
		if (n < 0 && errno != EINTR)
			return -errno;
		if (e->stopped && e->stopped(e->pause_ctx))
			return 0;
	}
}

static void link_msg(uint32_t cmd, unsigned char out[8])
{
	/* fio writes the opening in network order and the closing in little-endian */
	uint32_t m = cmd == LINK_OPEN ? htonl(LINK_MAGIC) : htole32(LINK_MAGIC);
	uint32_t c = cmd == LINK_OPEN ? htonl(cmd) : htole32(cmd);

	memcpy(out, &m, 4);
	memcpy(out + 4, &c, 4);
}

static int connect_peer(struct net_state *s, const struct net_opts *o, char *msg, size_t len)
{
	int type = is_udp(o->proto) ? SOCK_DGRAM : SOCK_STREAM, ret;
	unsigned char open_msg[8];

	s->fd = socket(s->addr.sa.sa_family, type | SOCK_CLOEXEC, 0);
	if (s->fd < 0)
		return snprintf(msg, len, "socket: %s", strerror(errno)), -errno;
	ret = nodelay(s->fd, o);
	if (!ret)
		ret = tune(s->fd, o, o->pingpong, true);
	if (ret)
		return snprintf(msg, len, "%s", net_why), ret;
	if (is_udp(o->proto)) {
		if (s->addr.sa.sa_family == AF_INET && IN_MULTICAST(ntohl(s->addr.in.sin_addr.s_addr))) {
			unsigned char ttl = (unsigned char)o->ttl;
			struct in_addr ifa;

			if (o->interface && (!inet_aton(o->interface, &ifa) ||
			    setsockopt(s->fd, IPPROTO_IP, IP_MULTICAST_IF, &ifa, sizeof(ifa)) < 0))
				return snprintf(msg, len, "interface '%s' for multicast",
						o->interface), -EINVAL;
			setsockopt(s->fd, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof(ttl));
		}
		link_msg(LINK_OPEN, open_msg);
		if (sendto(s->fd, open_msg, sizeof(open_msg), 0, &s->addr.sa, s->addrlen) < 0)
			return snprintf(msg, len, "opening the UDP link: %s", strerror(errno)),
			       -errno;
		return 0;
	}
	if (connect(s->fd, &s->addr.sa, s->addrlen) < 0)
		return snprintf(msg, len, "connect: %s", strerror(errno)), -errno;
	return 0;
}

/* A listener's wait for its peer: the connection (TCP, UNIX, vsock) or the link's opening. */
static int net_start(struct ioengine *e, char *msg, size_t len)
{
	struct net_state *s = e->priv;
	const struct net_opts *o = e->opts;
	unsigned char open_msg[8], want[8];
	int ret;

	if (!s->listen)
		return connect_peer(s, o, msg, len);
	ret = wait_fd(e, s->listenfd, POLLIN);
	if (ret <= 0)
		return ret ? (snprintf(msg, len, "waiting for the peer: %s", strerror(-ret)), ret) :
			     0;
	if (is_udp(o->proto)) {
		socklen_t al = sizeof(s->addr);

		s->fd = s->listenfd;
		s->listenfd = -1;
		ret = (int)recvfrom(s->fd, open_msg, sizeof(open_msg), 0, &s->addr.sa, &al);
		link_msg(LINK_OPEN, want);
		if (ret != (int)sizeof(open_msg) || memcmp(open_msg, want, sizeof(want)))
			return snprintf(msg, len, "the first datagram is not the link's opening"),
			       -EPROTO;
		s->addrlen = al;
		return 0;
	}
	s->fd = accept4(s->listenfd, NULL, NULL, SOCK_CLOEXEC);
	if (s->fd < 0)
		return snprintf(msg, len, "accept: %s", strerror(errno)), -errno;
	ret = nodelay(s->fd, o);
	return ret ? (snprintf(msg, len, "%s", net_why), ret) : 0;
}

static bool is_close(const unsigned char *buf, ssize_t n)
{
	unsigned char want[8];

	link_msg(LINK_CLOSE, want);
	return n == 8 && !memcmp(buf, want, 8);
}

/* fio's trailer: magic, sequence number and size, little-endian, at the datagram's end. */
static void put_seq(struct net_state *s, unsigned char *buf, uint32_t len)
{
	uint64_t v[3] = { htole64(UDP_SEQ_MAGIC), htole64(s->send_seq++), htole64(len) };

	if (len >= sizeof(v))
		memcpy(buf + len - sizeof(v), v, sizeof(v));
}

static void check_seq(struct ioengine *e, struct net_state *s, const unsigned char *buf,
		      uint32_t len)
{
	uint64_t v[3];

	if (len < sizeof(v) || s->seq_off)
		return;
	memcpy(v, buf + len - sizeof(v), sizeof(v));
	if (le64toh(v[0]) != UDP_SEQ_MAGIC)
		return;
	if (le64toh(v[2]) != len) {
		s->seq_off = true;
		return;
	}
	if (le64toh(v[1]) > s->recv_seq && e->drop_ios)
		*e->drop_ios += le64toh(v[1]) - s->recv_seq;
	s->recv_seq = le64toh(v[1]) + 1;
}

static ssize_t xfer(struct ioengine *e, struct net_state *s, int dir, unsigned char *buf,
		    uint32_t len)
{
	const struct net_opts *o = e->opts;
	ssize_t n;

	if (dir == IO_WRITE) {
		if (!is_udp(o->proto))
			return send(s->fd, buf, len, MSG_NOSIGNAL);
		if (e->job->verify == VERIFY_NONE)
			put_seq(s, buf, len);
		return sendto(s->fd, buf, len, 0, &s->addr.sa, s->addrlen);
	}
	n = recv(s->fd, buf, len, 0);
	if (is_close(buf, n))
		return 0;	/* the sender's end: the job's end */
	if (n > 0 && is_udp(o->proto) && e->job->verify == VERIFY_NONE)
		check_seq(e, s, buf, (uint32_t)n);
	return n;
}

static enum ioq_status net_queue(struct ioengine *e, struct io_req *r)
{
	struct net_state *s = e->priv;
	const struct net_opts *o = e->opts;
	ssize_t n;

	if (r->dir >= IO_NDIR) {
		r->res = 0;	/* a sync: nothing to do on a socket */
		return IOQ_DONE;
	}
	n = xfer(e, s, r->dir, r->buf, r->len);
	/* pingpong: the block comes back (a reader sends it back) before the I/O ends */
	if (n > 0 && o->pingpong) {
		ssize_t m = xfer(e, s, r->dir == IO_READ ? IO_WRITE : IO_READ, r->buf, (uint32_t)n);

		if (m <= 0)
			n = m;
	}
	r->res = n < 0 ? -errno : n;
	return IOQ_DONE;
}

/*
 * The job's end (its teardown): a writer tells the reader the link closes, over TCP too,
 * as fio's does (a fio reader ends on that message, not on the connection's end).
 */
static void net_close(struct ioengine *e)
{
	struct net_state *s = e->priv;
	const struct net_opts *o = e->opts;
	unsigned char msg[8];

	if (s->fd >= 0 && s->writer) {
		link_msg(LINK_CLOSE, msg);
		if (is_udp(o->proto))
			sendto(s->fd, msg, sizeof(msg), 0, &s->addr.sa, s->addrlen);
		else
			send(s->fd, msg, sizeof(msg), MSG_NOSIGNAL);
	}
	if (s->fd >= 0)
		close(s->fd);
	if (s->listenfd >= 0)
		close(s->listenfd);
	s->fd = s->listenfd = -1;
}

static void net_cleanup(struct ioengine *e)
{
	if (!e->priv)
		return;
	net_close(e);
	free(e->priv);
	e->priv = NULL;
}

const struct ioengine_ops net_engine = {
	.name		= "net",
	.flags		= IOENG_SYNC | IOENG_NOFILES | IOENG_STREAM,
	.fds		= 2,
	.help		= "fio's network engine: TCP, UDP, UNIX sockets or vsock, one end "
			  "listening",
	.options	= net_options,
	.options_size	= sizeof(struct net_opts),
	.init		= net_init,
	.init_hint	= net_hint,
	.cleanup	= net_cleanup,
	.start		= net_start,
	.queue		= net_queue,
};
