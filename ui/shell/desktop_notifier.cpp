#include "ui/shell/desktop_notifier.h"

#include <QApplication>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDBusReply>
#include <QSystemTrayIcon>
#include <QWidget>

namespace qatdoctor::ui {
namespace {

const QString kService = QStringLiteral("org.freedesktop.Notifications");

// A notification server is running, or D-Bus can start one (dunst is often activated so). Two
// short calls to the local bus daemon; the notification itself is not waited for.
bool notificationServer()
{
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected() || !bus.interface()) return false;
    if (bus.interface()->isServiceRegistered(kService)) return true;
    const QDBusReply<QStringList> activatable = bus.interface()->activatableServiceNames();
    return activatable.isValid() && activatable.value().contains(kService);
}

}  // namespace

DesktopNotifier::DesktopNotifier(QWidget* window) : QObject(window), m_window(window) {}

QString DesktopNotifier::channelName(Channel c)
{
    switch (c) {
        case Channel::Freedesktop:
            return QStringLiteral("freedesktop");
        case Channel::TrayIcon:
            return QStringLiteral("tray");
        case Channel::WindowOnly:
            break;
    }
    return QStringLiteral("window");
}

DesktopNotifier::Channel DesktopNotifier::notify(const QString& title, const QString& body)
{
    QApplication::alert(m_window);  // the taskbar entry asks for attention in every case
    if (notificationServer()) {
        QDBusMessage call = QDBusMessage::createMethodCall(
            kService, QStringLiteral("/org/freedesktop/Notifications"), kService, QStringLiteral("Notify"));
        QVariantMap hints;
        hints.insert(QStringLiteral("urgency"), QVariant::fromValue(static_cast<uchar>(2)));  // critical
        hints.insert(QStringLiteral("desktop-entry"), QStringLiteral("qatdoctor"));
        call << QStringLiteral("QAT Doctor") << 0U << QStringLiteral("dialog-error") << title << body
             << QStringList() << hints << -1;
        // not waited for: the GUI thread never blocks on the bus
        if (QDBusConnection::sessionBus().send(call)) return Channel::Freedesktop;
    }
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        if (!m_tray) {
            m_tray = new QSystemTrayIcon(m_window->windowIcon(), this);
            m_tray->setToolTip(QStringLiteral("QAT Doctor"));
            connect(m_tray, &QSystemTrayIcon::messageClicked, m_window, [w = m_window] {
                w->showNormal();
                w->raise();
                w->activateWindow();
            });
        }
        m_tray->show();
        m_tray->showMessage(title, body, QSystemTrayIcon::Critical);
        return Channel::TrayIcon;
    }
    return Channel::WindowOnly;
}

}  // namespace qatdoctor::ui
