// Tells the desktop about a live finding while the window may be hidden behind a terminal: a
// freedesktop notification over D-Bus (org.freedesktop.Notifications, which GNOME, KDE, XFCE,
// dunst and notification-daemon serve), else the system tray's message, else only the window's
// own banner and a taskbar alert.
#pragma once

#include <QObject>
#include <QString>

class QSystemTrayIcon;
class QWidget;

namespace qatdoctor::ui {

class DesktopNotifier : public QObject {
    Q_OBJECT
public:
    enum class Channel { Freedesktop, TrayIcon, WindowOnly };

    explicit DesktopNotifier(QWidget* window);

    // Shows it through the first channel the desktop offers; returns which.
    Channel notify(const QString& title, const QString& body);
    static QString channelName(Channel c);

private:
    QWidget* m_window;
    QSystemTrayIcon* m_tray = nullptr;
};

}  // namespace qatdoctor::ui
